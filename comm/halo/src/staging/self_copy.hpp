#pragma once
// Internal: the halo blocks a rank sends itself (periodic dimensions of one process) copied field to
// field by one Kokkos kernel ("cartex::halo::self_copy", run by run: copy_runs.hpp), with no buffer
// and no MPI: cell to(i) of the halo gets the value of interior cell from(i), in every field of the
// set (one kernel for up to FieldPointers::kChunk fields). The two lists never share a cell.
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/halo/cell_list.hpp"
#include "cartex/halo/plan.hpp"
#include "staging/copy_runs.hpp"

namespace cartex::halo {

class SelfCopy {
 public:
  SelfCopy() = default;
  // from(i) -> to(i); both lists have the same length (cartex::core::Error otherwise). Copied plane by
  // plane of `layout`'s last dimension (CopyRuns::Builder).
  SelfCopy(const CellList& from, const CellList& to, const core::FieldLayout& layout);
  // Copies in every field and fences (the halo cells hold their values on return). Nothing to do
  // without cells.
  void run(const FieldSet& f) const;
  long cells() const { return runs_.cells(); }

 private:
  CopyRuns runs_;  // a: interior cells, b: halo cells
};

}  // namespace cartex::halo
