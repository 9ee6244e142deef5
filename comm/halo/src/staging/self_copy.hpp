#pragma once
// Internal: the halo blocks a rank sends itself (periodic dimensions of one process) copied field to
// field by one Kokkos kernel ("cartex::halo::self_copy", run by run: copy_runs.hpp), with no buffer
// and no MPI: cell to(i) of the halo gets the value of interior cell from(i), in every field of the
// set (one kernel for up to FieldPointers::kChunk fields). The two lists never share a cell.
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/halo/cell_list.hpp"
#include "cartex/halo/plan.hpp"
#include "staging/copy_runs.hpp"

namespace cartex::halo {

class SelfCopy {
 public:
  SelfCopy() = default;
  // from(i) -> to(i); both lists have the same length (cartex::core::Error otherwise). Copied plane by
  // plane of `layout`'s last dimension (CopyRuns::Builder). With `x_fillable` (x_ghosts_fillable) it
  // also holds the copy that is left when the caller has filled the x ghosts of the block's rows:
  //
  //   row (y, z) of the block:   | g g | o o o o o o o o | g g |   g: the caller's (periodic images),
  //                                                                 not copied
  //   a ghost row in y or z:     | G G | c c c c c c c c | G G |   c: from the block, as always;
  //                                                                 G: from the g of c's source row
  SelfCopy(const CellList& from, const CellList& to, const core::FieldLayout& layout, bool x_fillable = false);
  // Copies in every field and fences (the halo cells hold their values on return): the shorter copy
  // if expect_filled_x() was called since the last run, else every cell. Nothing to do without cells.
  void run(const FieldSet& f);
  // True if built x_fillable: expect_filled_x() is then taken.
  bool skips_filled_x() const { return x_fillable_; }
  // The next run() (only it) may take the x ghosts of the block's rows as their periodic images
  // (kernels::XGhosts::kPeriodic). Ignored unless skips_filled_x().
  void expect_filled_x() { next_ = x_fillable_ ? Next::kSkipFilledX : Next::kAll; }
  long cells() const { return runs_.cells(); }

 private:
  enum class Next { kAll, kSkipFilledX };  // what the next run copies
  CopyRuns runs_;           // a: interior cells, b: halo cells
  CopyRuns runs_filled_x_;  // the same without what the caller filled (x_fillable only)
  bool x_fillable_ = false;
  Next next_ = Next::kAll;
};

// True when the caller may fill the x ghosts of the block's rows instead of the self copy: x is
// periodic on one process, and the block is at least as wide as the view's x halo on either side
// (a ghost's image is then a block cell).
bool x_ghosts_fillable(const PlanInputs& in);

}  // namespace cartex::halo
