#include "cartex/kernels/diagnostics.hpp"

#include <cstring>

#include "cartex/core/error.hpp"
#include "cartex/core/kokkos_compat.hpp"
#include "sine_factors.hpp"

namespace cartex::kernels {

namespace {

Kokkos::MDRangePolicy<Kokkos::Rank<3>> interior(const core::FieldLayout& l) {
  return Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {l.box.n[2], l.box.n[1], l.box.n[0]});
}

// SplitMix64 finaliser: a bijective 64-bit mix.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

void mpi_allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  if (MPI_Allreduce(send, recv, count, type, op, comm) != MPI_SUCCESS)
    throw core::Error("MPI_Allreduce failed in the diagnostics");
}

FieldStats field_stats(const core::Field& f, MPI_Comm comm, const Allreduce& allreduce) {
  const auto v = f.view;
  const long ox = f.layout.halo.lo[0], oy = f.layout.halo.lo[1], oz = f.layout.halo.lo[2];
  double sum = 0, mn = 0, mx = 0;
  Kokkos::parallel_reduce(
      "cartex::diagnostics::sum", interior(f.layout),
      KOKKOS_LAMBDA(long z, long y, long x, double& s) { s += v(z + oz, y + oy, x + ox); }, sum);
  Kokkos::parallel_reduce(
      "cartex::diagnostics::min", interior(f.layout),
      KOKKOS_LAMBDA(long z, long y, long x, double& m) {
        const double u = v(z + oz, y + oy, x + ox);
        if (u < m) m = u;
      },
      Kokkos::Min<double>(mn));
  Kokkos::parallel_reduce(
      "cartex::diagnostics::max", interior(f.layout),
      KOKKOS_LAMBDA(long z, long y, long x, double& m) {
        const double u = v(z + oz, y + oy, x + ox);
        if (u > m) m = u;
      },
      Kokkos::Max<double>(mx));
  FieldStats s;
  allreduce(&sum, &s.sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  // min as the max of negated values: one reduction for both (negation is exact).
  const double local[2] = {-mn, mx};
  double global[2] = {0, 0};
  allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm);
  s.min = -global[0];
  s.max = global[1];
  return s;
}

double max_error_vs_sine(const core::Field& f, const core::GlobalGrid& grid, const std::array<double, 3>& k, double amplitude,
                         MPI_Comm comm, const Allreduce& allreduce) {
  const auto v = f.view;
  const long ox = f.layout.halo.lo[0], oy = f.layout.halo.lo[1], oz = f.layout.halo.lo[2];
  const detail::SineFactors mode(grid, f.layout, k);
  double err = 0;
  Kokkos::parallel_reduce(
      "cartex::diagnostics::sine_error", interior(f.layout),
      KOKKOS_LAMBDA(long z, long y, long x, double& m) {
        const double e = mode(amplitude, x, y, z);
        const double u = v(z + oz, y + oy, x + ox);
        const double diff = u > e ? u - e : e - u;
        if (diff > m) m = diff;
      },
      Kokkos::Max<double>(err));
  double global = 0;
  allreduce(&err, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  return global;
}

std::uint64_t field_checksum(const core::Field& f, const core::GlobalGrid& grid, MPI_Comm comm, const Allreduce& allreduce) {
  const auto v = f.view;
  const long ox = f.layout.halo.lo[0], oy = f.layout.halo.lo[1], oz = f.layout.halo.lo[2];
  const long gx = f.layout.box.lo[0], gy = f.layout.box.lo[1], gz = f.layout.box.lo[2];
  const long NX = grid.n[0], NY = grid.n[1];
  std::uint64_t local = 0;
  Kokkos::parallel_reduce(
      "cartex::diagnostics::checksum", interior(f.layout),
      KOKKOS_LAMBDA(long z, long y, long x, std::uint64_t& s) {
        const double u = v(z + oz, y + oy, x + ox);
        std::uint64_t bits = 0;
        memcpy(&bits, &u, sizeof bits);
        const std::uint64_t index = static_cast<std::uint64_t>(((gz + z) * NY + (gy + y)) * NX + (gx + x));
        s += mix64(bits ^ mix64(index));
      },
      local);
  std::uint64_t global = 0;
  allreduce(&local, &global, 1, MPI_UINT64_T, MPI_SUM, comm);
  return global;
}

std::uint64_t state_checksum(const core::State& s, const core::GlobalGrid& grid, MPI_Comm comm, const Allreduce& allreduce) {
  std::uint64_t c = field_checksum(s[0], grid, comm, allreduce);
  for (std::size_t q = 1; q < s.size(); ++q) c = mix64(c ^ field_checksum(s[q], grid, comm, allreduce));
  return c;
}

}  // namespace cartex::kernels
