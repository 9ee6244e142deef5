#include "cartex/kernels/coefficient_field.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cartex/core/error.hpp"

namespace cartex::kernels {

std::array<long, 3> coefficient_source_cell(const core::GlobalGrid& grid, const core::FieldLayout& layout, long i, long j, long k) {
  const long v[3] = {i, j, k};
  std::array<long, 3> g{};
  for (int d = 0; d < 3; ++d) g[d] = core::coefficient_source_index(grid, d, layout.global_index(d, v[d]));
  return g;
}

core::Field make_coefficient_field(const core::CoefficientInput& c, const core::GlobalGrid& grid, const core::FieldLayout& layout) {
  std::vector<double> values;
  values.reserve(static_cast<size_t>(layout.extent(0) * layout.extent(1) * layout.extent(2)));
  for (long k = 0; k < layout.extent(2); ++k)
    for (long j = 0; j < layout.extent(1); ++j)
      for (long i = 0; i < layout.extent(0); ++i)
        values.push_back(core::coefficient_value(c, grid, coefficient_source_cell(grid, layout, i, j, k)));
  return coefficient_field_from_values(values, layout);
}

core::Field coefficient_field_from_values(const std::vector<double>& values, const core::FieldLayout& layout) {
  core::Field f("cartex::coefficient", layout);
  core::require(values.size() == f.view.size(), "coefficient_field_from_values: one value per view cell expected");
  auto host = Kokkos::create_mirror_view(f.view);
  std::copy(values.begin(), values.end(), host.data());
  Kokkos::deep_copy(f.view, host);
  return f;
}

std::array<double, 2> interior_min_max(const core::Field& f) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  const auto& l = f.layout;
  std::array<double, 2> mm{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (long k = 0; k < l.box.n[2]; ++k)
    for (long j = 0; j < l.box.n[1]; ++j)
      for (long i = 0; i < l.box.n[0]; ++i) {
        const double a = host(k + l.halo.lo[2], j + l.halo.lo[1], i + l.halo.lo[0]);
        if (a < mm[0] || std::isnan(a)) mm[0] = std::isnan(mm[0]) ? mm[0] : a;  // a NaN stays the minimum
        mm[1] = std::max(mm[1], a);
      }
  return mm;
}

}  // namespace cartex::kernels
