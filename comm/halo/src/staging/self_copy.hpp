#pragma once
// Internal: the halo blocks a rank sends itself (periodic dimensions of one process) copied field to
// field by one Kokkos kernel ("cartex::halo::self_copy", run by run: copy_runs.hpp), with no buffer
// and no MPI: cell to(i) of the halo gets the value of interior cell from(i), in every field of the
// set (one kernel for up to FieldPointers::kChunk fields). The two lists never share a cell.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <utility>
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
  // plane of `layout`'s last dimension (CopyRuns::Builder). With `fillable_dims` 1 or 2
  // (fillable_dims_of) it also holds the copies that are left when the caller has filled the
  // periodic ghosts of x (and y) in the block's planes:
  //
  //   a plane z of the block:    | G G | c c c c c c c c | G G |   y ghost row: the caller's at 2
  //                              | g g | o o o o o o o o | g g |   g: the caller's at 1 and 2
  //                              | G G | c c c c c c c c | G G |   at 1, c from the block as always,
  //                                                                G from the g of c's source row
  //   a ghost plane in z:        every cell from its source's image in the source plane: the same
  //                              x (and y) as the cell, a cell the caller filled
  SelfCopy(const CellList& from, const CellList& to, const core::FieldLayout& layout, int fillable_dims = 0);
  // The same from a pair (from, to).
  SelfCopy(const std::pair<CellList, CellList>& pairs, const core::FieldLayout& layout, int fillable_dims = 0)
      : SelfCopy(pairs.first, pairs.second, layout, fillable_dims) {}
  // Copies in every field and fences (the halo cells hold their values on return): the shorter copy
  // if expect_filled(dims) was called since the last run, else every cell. Nothing to do without cells.
  void run(const FieldSet& f);
  // How many of x, y the copy can leave to the caller (0, 1 or 2): what it was built with.
  int fillable_dims() const { return static_cast<int>(runs_filled_.size()); }
  // The next run() (only it) may take the periodic ghosts of the first `dims` of x, y as filled
  // (kernels::PeriodicGhosts::kX, kXY); the rest is copied. Taken up to fillable_dims().
  void expect_filled(int dims) { filled_ = std::clamp(dims, 0, fillable_dims()); }
  long cells() const { return runs_.cells(); }

 private:
  CopyRuns runs_;                       // a: interior cells, b: halo cells
  std::vector<CopyRuns> runs_filled_;   // [d]: the same without what the caller filled in x .. dimension d
  int filled_ = 0;                      // what the next run may take as filled (0: nothing)
};

// How many of x, y a caller may fill instead of the self copy (0, 1 or 2): x when it is periodic on
// one process and the block is at least as wide as the view's x halo on either side (a ghost's image
// is then a block cell); y too when the same holds for y.
int fillable_dims_of(const PlanInputs& in);

}  // namespace cartex::halo
