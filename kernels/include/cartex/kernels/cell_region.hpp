#pragma once
// A set of cells of one field layout as runs along x, copied to the device once: what an update
// sweeps besides the whole interior (deep-halo steps, the inner part and rim of an overlapped step).
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"

namespace cartex::kernels {

struct CellRegion {
  Kokkos::View<long*> start, length;  // run r: view indices start(r) .. start(r) + length(r) - 1
  long cells = 0;
};

// The device copy of `runs` (view indices of `layout`); throws cartex::core::Error if a run leaves the view.
CellRegion make_cell_region(const core::FieldLayout& layout, const std::vector<core::LineRun>& runs);

}  // namespace cartex::kernels
