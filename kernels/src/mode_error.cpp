#include "cartex/kernels/mode_error.hpp"

#include <Kokkos_Core.hpp>

namespace cartex::kernels {

double relative_error_vs_modes(const core::Field& f, const core::GlobalGrid& grid, const ModeSum& exact, MPI_Comm comm,
                               const Allreduce& allreduce) {
  const auto v = f.view;
  const auto& l = f.layout;
  const long ox = l.halo.lo[0], oy = l.halo.lo[1], oz = l.halo.lo[2];
  // Positions as the initial condition computes them: x_0 + (box.lo + i) * h.
  double x0[3] = {0, 0, 0}, h[3] = {0, 0, 0};
  long lo[3] = {0, 0, 0};
  for (int d = 0; d < grid.dim; ++d) {
    h[d] = grid.spacing(d);
    x0[d] = grid.position(d, 0);
    lo[d] = l.box.lo[d];
  }
  const double x0x = x0[0], x0y = x0[1], x0z = x0[2], hx = h[0], hy = h[1], hz = h[2];
  const long lx = lo[0], ly = lo[1], lz = lo[2];
  const auto range = Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {l.box.n[2], l.box.n[1], l.box.n[0]});
  double local[2] = {0, 0};  // max |u - e|, max |e|
  Kokkos::parallel_reduce(
      "cartex::diagnostics::mode_error", range,
      KOKKOS_LAMBDA(long z, long y, long x, double& m) {
        const double e = exact(x0x + static_cast<double>(lx + x) * hx, x0y + static_cast<double>(ly + y) * hy,
                               x0z + static_cast<double>(lz + z) * hz);
        const double u = v(z + oz, y + oy, x + ox);
        const double d = u > e ? u - e : e - u;
        if (d > m) m = d;
      },
      Kokkos::Max<double>(local[0]));
  Kokkos::parallel_reduce(
      "cartex::diagnostics::mode_size", range,
      KOKKOS_LAMBDA(long z, long y, long x, double& m) {
        const double e = exact(x0x + static_cast<double>(lx + x) * hx, x0y + static_cast<double>(ly + y) * hy,
                               x0z + static_cast<double>(lz + z) * hz);
        const double a = e > 0 ? e : -e;
        if (a > m) m = a;
      },
      Kokkos::Max<double>(local[1]));
  double global[2] = {0, 0};
  allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm);
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

}  // namespace cartex::kernels
