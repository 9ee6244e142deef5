#include "cartex/kernels/cell_region.hpp"

#include "cartex/core/error.hpp"

namespace cartex::kernels {

CellRegion make_cell_region(const core::FieldLayout& layout, const std::vector<core::LineRun>& runs) {
  CellRegion r;
  r.start = Kokkos::View<long*>("cartex::region_start", runs.size());
  r.length = Kokkos::View<long*>("cartex::region_length", runs.size());
  auto hs = Kokkos::create_mirror_view(r.start);
  auto hl = Kokkos::create_mirror_view(r.length);
  const long view_cells = layout.extent(0) * layout.extent(1) * layout.extent(2);
  for (size_t i = 0; i < runs.size(); ++i) {
    core::require(runs[i].start >= 0 && runs[i].length >= 0 && runs[i].start + runs[i].length <= view_cells,
            "make_cell_region: a run leaves the field's view");
    hs(i) = runs[i].start;
    hl(i) = runs[i].length;
    r.cells += runs[i].length;
  }
  Kokkos::deep_copy(r.start, hs);
  Kokkos::deep_copy(r.length, hl);
  return r;
}

}  // namespace cartex::kernels
