#include "cartex/kernels/boundary.hpp"

namespace cartex::kernels {

void fill_dirichlet(core::Field& f, const core::GlobalGrid& grid, const std::array<std::array<double, 2>, 3>& value) {
  const core::FieldLayout& L = f.layout;
  Kokkos::Array<long, 3> lo{}, n{}, off{};
  Kokkos::Array<int, 3> wall{};
  Kokkos::Array<double, 6> val{};
  for (int d = 0; d < 3; ++d) {
    lo[d] = L.box.lo[d];
    n[d] = grid.n[d];
    off[d] = L.halo.lo[d];
    wall[d] = grid.periodic[d] ? 0 : 1;
    val[2 * d] = value[d][0];
    val[2 * d + 1] = value[d][1];
  }
  const auto v = f.view;
  Kokkos::parallel_for(
      "cartex::boundary::dirichlet",
      Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {L.extent(2), L.extent(1), L.extent(0)}),
      KOKKOS_LAMBDA(const long k, const long j, const long i) {
        const long g[3] = {lo[0] + i - off[0], lo[1] + j - off[1], lo[2] + k - off[2]};
        for (int d = 0; d < 3; ++d) {
          if (!wall[d]) continue;
          if (g[d] < 0) {
            v(k, j, i) = val[2 * d];
            return;
          }
          if (g[d] >= n[d]) {
            v(k, j, i) = val[2 * d + 1];
            return;
          }
        }
      });
}

}  // namespace cartex::kernels
