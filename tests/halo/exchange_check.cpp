// The halo exchange checker of exchange_check.hpp (the field encodes the global cell index).
#include "exchange_check.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "cartex/core/decomposition.hpp"
#include "cartex/core/field.hpp"
#include "cartex/halo/backends.hpp"
#include "mpi_world.hpp"

namespace cartex::test {

namespace {

constexpr double kUntouched = -1.0;

// Backends that may leave correct copies outside the exact halo: cart_forwarding in the bounding box
// (it forwards through them), p2p in its whole planes (slab decompositions), auto when it picks one.
bool copies_outside(const std::string& backend) { return backend == "cart_forwarding" || backend == "p2p" || backend == "auto"; }

}  // namespace

long wrong_cells_after_exchange(const Case& c, const std::string& backend, int extra, core::GpuAwareMpiInput gpu_aware_mpi) {
  const int rank = test::world_rank(), size = test::world_size();
  const core::GlobalGrid g = c.grid();
  const core::Stencil st = c.stencil();
  const core::Decomposition dec(g, core::ProcessGrid::create(g, {0, 0, 0}, size));
  const halo::HaloGeometry geo(dec, st, c.k);
  core::HaloWidths view = geo.widths();
  for (int d = 0; d < g.dim; ++d) view.lo[d] += extra, view.hi[d] += extra;
  const halo::HaloPattern pat = halo::make_halo_pattern(geo, rank, view);
  const core::FieldLayout& L = pat.layout;

  core::Field f("f", L);
  auto h = Kokkos::create_mirror_view(f.view);
  fill_encoded(c, L, h);
  Kokkos::deep_copy(f.view, h);

  auto plan = halo::make_halo_plan(backend, {pat, MPI_COMM_WORLD, &geo, gpu_aware_mpi});
  plan->exchange(f);
  plan->exchange(f);  // a second exchange on the same plan must give the same result
  Kokkos::deep_copy(h, f.view);
  return wrong_cells(c, L, h, backend, c.describe());
}

void fill_encoded(const Case& c, const core::FieldLayout& L, const core::FieldView::HostMirror& h, double shift) {
  const core::GlobalGrid g = c.grid();
  Kokkos::deep_copy(h, kUntouched);
  for (long z = 0; z < L.box.n[2]; ++z)
    for (long y = 0; y < L.box.n[1]; ++y)
      for (long x = 0; x < L.box.n[0]; ++x)
        h(z + L.halo.lo[2], y + L.halo.lo[1], x + L.halo.lo[0]) =
            test::encode(g, {L.box.lo[0] + x, L.box.lo[1] + y, L.box.lo[2] + z}) + shift;
}

long wrong_cells(const Case& c, const core::FieldLayout& L, const core::FieldView::HostMirror& h, const std::string& backend,
                 const std::string& what, double shift) {
  const int rank = test::world_rank();
  const core::GlobalGrid g = c.grid();
  const core::Stencil st = c.stencil();

  std::vector<core::Offset> reach{{0, 0, 0}};  // S^k, by repeated addition
  for (int step = 0; step < c.k; ++step) {
    std::vector<core::Offset> next;
    for (const auto& a : reach)
      for (const auto& b : st.offsets) next.push_back({a[0] + b[0], a[1] + b[1], a[2] + b[2]});
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    reach.swap(next);
  }
  long wrong = 0;
  std::array<long, 3> gc{};
  for (long k = 0; k < L.extent(2); ++k)
    for (long j = 0; j < L.extent(1); ++j)
      for (long i = 0; i < L.extent(0); ++i) {
        const std::array<long, 3> v{i, j, k};
        bool has_owner = true;
        std::array<long, 3> wrapped{};
        for (int d = 0; d < 3; ++d) {
          gc[d] = L.global_index(d, v[d]);
          has_owner = has_owner && (g.periodic[d] || (gc[d] >= 0 && gc[d] < g.n[d]));
          wrapped[d] = ((gc[d] % g.n[d]) + g.n[d]) % g.n[d];
        }
        const bool interior = L.box.contains(gc);
        // Exact halo by brute force: some member o of S^k reaches c from the block.
        bool reached = false;
        for (const auto& o : reach)
          if (L.box.contains({gc[0] - o[0], gc[1] - o[1], gc[2] - o[2]})) {
            reached = true;
            break;
          }
        const bool exact = !interior && has_owner && reached;
        const double owner_value = has_owner ? test::encode(g, wrapped) + shift : kUntouched;
        const double got = h(k, j, i);
        bool ok;
        if (interior || exact)
          ok = got == owner_value;
        else
          ok = got == kUntouched || (copies_outside(backend) && has_owner && got == owner_value);
        if (!ok && ++wrong <= 3)
          ADD_FAILURE() << backend << " " << what << " rank " << rank << " view (" << i << "," << j << "," << k
                        << ") global (" << gc[0] << "," << gc[1] << "," << gc[2] << ") holds " << got << ", expected "
                        << ((interior || exact) ? owner_value : kUntouched) << (exact ? " (halo)" : "");
      }
  return wrong;
}

}  // namespace cartex::test
