// Value of a cell = its global linear index + 1, so a wrong source, a shifted cell or a swapped
// direction all show up as a wrong number (as tests/halo/halo_exchange_test.cpp checks).
#include "verify.hpp"

#include <array>
#include <vector>

#include "cartex/core/mpi_check.hpp"

namespace halobench {
namespace {

double encode(const cartex::core::GlobalGrid& g, const std::array<long, 3>& c) {
  return static_cast<double>((c[2] * g.n[1] + c[1]) * g.n[0] + c[0] + 1);
}

// Global cell of linear view index `idx`, wrapped into the periodic grid.
std::array<long, 3> wrapped_global(const cartex::core::FieldLayout& l, const cartex::core::GlobalGrid& g, long idx) {
  const std::array<long, 3> v{idx % l.extent(0), (idx / l.extent(0)) % l.extent(1), idx / (l.extent(0) * l.extent(1))};
  std::array<long, 3> c{};
  for (int d = 0; d < 3; ++d) c[d] = ((l.global_index(d, v[d]) % g.n[d]) + g.n[d]) % g.n[d];
  return c;
}

}  // namespace

long count_wrong_cells(cartex::halo::HaloPlan& plan, cartex::core::Field& f, const cartex::halo::HaloPattern& pattern,
                       const cartex::core::GlobalGrid& grid, MPI_Comm comm) {
  return count_wrong_cells(plan, std::vector<cartex::core::Field*>{&f}, pattern, grid, comm);
}

long count_wrong_cells(cartex::halo::HaloPlan& plan, const std::vector<cartex::core::Field*>& fields,
                       const cartex::halo::HaloPattern& pattern, const cartex::core::GlobalGrid& grid, MPI_Comm comm) {
  const cartex::core::FieldLayout& L = pattern.layout;
  std::vector<cartex::core::FieldView::HostMirror> hosts;
  for (std::size_t q = 0; q < fields.size(); ++q) {
    const double shift = static_cast<double>(q) * static_cast<double>(grid.n[0] * grid.n[1] * grid.n[2]);
    auto h = Kokkos::create_mirror_view(fields[q]->view);
    Kokkos::deep_copy(h, -1.0);
    for (long z = 0; z < L.box.n[2]; ++z)
      for (long y = 0; y < L.box.n[1]; ++y)
        for (long x = 0; x < L.box.n[0]; ++x)
          h(z + L.halo.lo[2], y + L.halo.lo[1], x + L.halo.lo[0]) =
              encode(grid, {L.box.lo[0] + x, L.box.lo[1] + y, L.box.lo[2] + z}) + shift;
    Kokkos::deep_copy(fields[q]->view, h);
    hosts.push_back(h);
  }
  const cartex::halo::FieldSet set(fields);
  plan.exchange(set);
  plan.exchange(set);
  long wrong = 0;
  for (std::size_t q = 0; q < fields.size(); ++q) {
    const double shift = static_cast<double>(q) * static_cast<double>(grid.n[0] * grid.n[1] * grid.n[2]);
    auto& h = hosts[q];
    Kokkos::deep_copy(h, fields[q]->view);
    const double* data = h.data();
    for (const auto& r : pattern.recvs())
      for (long idx : *r.cells)
        if (data[idx] != encode(grid, wrapped_global(L, grid, idx)) + shift) ++wrong;
    for (long z = 0; z < L.box.n[2]; ++z)
      for (long y = 0; y < L.box.n[1]; ++y)
        for (long x = 0; x < L.box.n[0]; ++x)
          if (h(z + L.halo.lo[2], y + L.halo.lo[1], x + L.halo.lo[0]) !=
              encode(grid, {L.box.lo[0] + x, L.box.lo[1] + y, L.box.lo[2] + z}) + shift)
            ++wrong;
  }
  long total = 0;
  cartex::core::check_mpi(MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, comm), "MPI_Allreduce");
  return total;
}

}  // namespace halobench
