// Halo exchange: after one exchange every halo cell that the stencil needs holds its owner's value,
// and no other halo cell was written. The field encodes the global cell index, so a wrong source,
// a shifted box or a swapped direction shows up as a wrong number.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/core/decomposition.hpp"
#include "cartex/core/field.hpp"
#include "cartex/halo/halo_plan.hpp"
#include "cartex/halo/halo_regions.hpp"

namespace cartex {
namespace {

constexpr double kUntouched = -1.0;

// Value of global cell g: its linear index + 1 (0 never appears, -1 marks untouched halo cells).
double encode(const GlobalGrid& g, const std::array<long, 3>& c) { return static_cast<double>((c[2] * g.n[1] + c[1]) * g.n[0] + c[0] + 1); }

struct Case {
  int dim;
  std::array<long, 3> n;
  std::array<bool, 3> periodic;
  std::string stencil;
};

std::string describe(const Case& c) {
  return std::to_string(c.n[0]) + "x" + std::to_string(c.n[1]) + (c.dim == 3 ? "x" + std::to_string(c.n[2]) : "") +
         " periodic " + std::to_string(c.periodic[0]) + std::to_string(c.periodic[1]) + std::to_string(c.periodic[2]) +
         " " + c.stencil;
}

// Exchanges once and checks every cell of the view against the expectation.
void check_case(const Case& c, const std::string& backend) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  GlobalGrid g;
  g.dim = c.dim;
  g.n = c.n;
  g.periodic = c.periodic;
  if (c.dim == 2) g.periodic[2] = true;
  for (int d = 0; d < 3; ++d) g.length[d] = static_cast<double>(g.periodic[d] ? g.n[d] : g.n[d] + 1);  // h = 1
  const Stencil st = make_builtin_stencil(c.stencil, g);
  const ProcessGrid pg = ProcessGrid::create(g, {0, 0, 0}, size);
  const Decomposition dec(g, pg);
  const HaloRegions regions = make_halo_regions(dec, rank, st);
  const FieldLayout& L = regions.layout;

  Field f("f", L);
  auto h = Kokkos::create_mirror_view(f.view);
  Kokkos::deep_copy(h, kUntouched);
  for (long z = 0; z < L.box.n[2]; ++z)
    for (long y = 0; y < L.box.n[1]; ++y)
      for (long x = 0; x < L.box.n[0]; ++x)
        h(L.view_index(2, L.box.lo[2] + z), L.view_index(1, L.box.lo[1] + y), L.view_index(0, L.box.lo[0] + x)) =
            encode(g, {L.box.lo[0] + x, L.box.lo[1] + y, L.box.lo[2] + z});
  Kokkos::deep_copy(f.view, h);

  auto plan = make_halo_plan(backend, regions, MPI_COMM_WORLD);
  plan->exchange(f);
  Kokkos::deep_copy(h, f.view);

  long checked = 0, wrong = 0;
  for (long k = 0; k < L.extent(2); ++k)
    for (long j = 0; j < L.extent(1); ++j)
      for (long i = 0; i < L.extent(0); ++i) {
        const std::array<long, 3> v{i, j, k};
        std::array<long, 3> gc{};
        std::array<int, 3> side{};  // -1 below the interior, +1 above, 0 inside
        bool outside_domain = false;
        for (int d = 0; d < 3; ++d) {
          gc[d] = L.global_index(d, v[d]);
          side[d] = gc[d] < L.box.lo[d] ? -1 : (gc[d] >= L.box.hi(d) ? 1 : 0);
          if (gc[d] < 0 || gc[d] >= g.n[d]) {
            if (!g.periodic[d]) outside_domain = true;
            gc[d] = (gc[d] % g.n[d] + g.n[d]) % g.n[d];
          }
        }
        const bool interior = side == std::array<int, 3>{0, 0, 0};
        bool needed = false;
        for (const auto& nb : regions.neighbors) needed = needed || nb.offset == Offset{side[0], side[1], side[2]};
        const double expect = interior || (needed && !outside_domain) ? encode(g, gc) : kUntouched;
        ++checked;
        if (h(k, j, i) != expect && ++wrong <= 5)
          ADD_FAILURE() << describe(c) << " rank " << rank << " view (" << i << "," << j << "," << k << ") holds "
                        << h(k, j, i) << ", expected " << expect;
      }
  EXPECT_EQ(wrong, 0) << describe(c) << " rank " << rank << ": " << wrong << " of " << checked << " cells wrong";
}

std::vector<Case> cases() {
  std::vector<Case> out;
  const std::vector<std::array<bool, 3>> periodicity = {{true, true, true}, {false, false, false}, {true, false, true}, {false, true, false}};
  for (const auto& p : periodicity) {
    for (const char* s : {"5pt", "9pt"}) out.push_back({2, {11, 9, 1}, p, s});
    for (const char* s : {"7pt", "27pt"}) {
      out.push_back({3, {9, 7, 8}, p, s});
      out.push_back({3, {4, 4, 4}, p, s});
    }
  }
  return out;
}

TEST(HaloExchange, P2PFillsEveryNeededHaloCellWithItsOwnersValue) {
  for (const auto& c : cases()) check_case(c, "p2p");
}

TEST(HaloRegions, StarStencilsNeedFacesOnlyBoxStencilsEverything) {
  GlobalGrid g;
  g.n = {8, 8, 8};
  ProcessGrid pg;
  const Decomposition dec(g, pg);
  EXPECT_EQ(make_halo_regions(dec, 0, make_builtin_stencil("7pt", g)).neighbors.size(), 6u);
  EXPECT_EQ(make_halo_regions(dec, 0, make_builtin_stencil("27pt", g)).neighbors.size(), 26u);
  g.dim = 2;
  g.n[2] = 1;
  const Decomposition dec2(g, pg);
  EXPECT_EQ(make_halo_regions(dec2, 0, make_builtin_stencil("5pt", g)).neighbors.size(), 4u);
  EXPECT_EQ(make_halo_regions(dec2, 0, make_builtin_stencil("9pt", g)).neighbors.size(), 8u);
}

TEST(HaloRegions, RejectsHalosDeeperThanTheSmallestBlock) {
  GlobalGrid g;
  g.n = {8, 8, 3};
  ProcessGrid pg;
  pg.dims = {1, 1, 3};  // blocks of one cell in z are fine for radius-1 stencils
  Decomposition dec(g, pg);
  EXPECT_NO_THROW(make_halo_regions(dec, 0, make_builtin_stencil("7pt", g)));
  Stencil wide = make_builtin_stencil("7pt", g);
  wide.offsets.push_back({0, 0, 2});
  wide.weights.push_back(0.0);
  EXPECT_THROW(make_halo_regions(dec, 0, wide), std::invalid_argument);
}

TEST(HaloPlan, ReportsMessagesAndBytes) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  GlobalGrid g;
  g.n = {6, 5, 8};
  const ProcessGrid pg = ProcessGrid::create(g, {1, 1, 0}, size);
  const Decomposition dec(g, pg);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto plan = make_halo_plan("p2p", make_halo_regions(dec, rank, make_builtin_stencil("7pt", g)), MPI_COMM_WORLD);
  const Box b = dec.box(rank);
  // Periodic 7pt: six face messages, two of n_x*n_y, two of n_x*n_z, two of n_y*n_z cells.
  EXPECT_EQ(plan->stats().messages, 6);
  EXPECT_EQ(plan->stats().bytes, 8 * 2 * (b.n[0] * b.n[1] + b.n[0] * b.n[2] + b.n[1] * b.n[2]));
  EXPECT_THROW(make_halo_plan("carrier_pigeon", make_halo_regions(dec, rank, make_builtin_stencil("7pt", g)), MPI_COMM_WORLD),
               std::invalid_argument);
}

}  // namespace
}  // namespace cartex
