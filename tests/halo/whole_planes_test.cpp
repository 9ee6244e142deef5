// p2p's whole planes (staging/whole_planes.hpp) on slab decompositions: random cases (2D and 3D, star,
// box, upwind, one-sided and skew stencils, radius 1-3, k 1-3, the split dimension periodic or walled,
// views deeper than the halo) fill every cell of the exact halo with its owner's value (the checker
// of exchange_check.hpp); the plan really sends planes (its message count, and it no longer copies
// the block at start) until asked to copy it (an overlapped pass), then copies the planes it sends at
// start; and the rule stays off where it does not hold (walls across a plane, staged buffers).
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <random>

#include "cartex/halo/backends.hpp"
#include "built_pattern.hpp"
#include "exchange_check.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

test::BuiltPattern slab(const test::Case& c) { return test::build_pattern(c); }

// A random slab case: the last dimension split over every rank, at least as thick as the halo.
test::Case random_case(std::mt19937& rng) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  test::Case c;
  test::pick_random_stencil(c, rng);
  const int w = c.radius * c.k, s = c.dim - 1;
  c.periodic = {true, true, pick(0, 1) == 1};
  if (c.dim == 2) c.periodic[1] = c.periodic[2], c.periodic[2] = true;
  c.n = {1, 1, 1};
  for (int d = 0; d < c.dim; ++d) c.n[d] = pick(w, w + 6);
  c.n[s] = static_cast<long>(test::world_size()) * pick(w, w + 3) + pick(0, test::world_size() - 1);
  return c;
}

TEST(WholePlanes, RandomSlabsFillTheExactHaloWithOwnersValues) {
  const unsigned seed = 20261129;
  std::mt19937 rng(seed);
  for (int i = 0; i < 60; ++i) {
    const test::Case c = random_case(rng);
    const test::BuiltPattern b = slab(c);
    const auto& dims = b.dec.procs().dims;
    ASSERT_EQ(dims[c.dim - 1], test::world_size()) << c.describe() << ": not a slab (run on a prime number of ranks)";
    const int extra = i % 3 == 0 ? 2 : 0;
    EXPECT_EQ(test::wrong_cells_after_exchange(c, "p2p", extra), 0) << "seed " << seed << " case " << i << " " << c.describe()
                                                                   << " view halo " << extra << " deeper";
    // The planes are in use: up and down each one message (one way only for "down"), the self copy
    // one more where the pattern has a block in the other dimensions (a skew stencil on blocks one
    // row thick has none), and the block is read by MPI until finish.
    auto plan = make_halo_plan("p2p", {b.pattern, MPI_COMM_WORLD, &b.geo});
    const int s = c.dim - 1;
    const core::HaloWidths& w = b.geo.widths();
    const int rank_coord = b.dec.procs().coords(test::world_rank())[s];
    const bool has_below = c.periodic[s] || rank_coord > 0, has_above = c.periodic[s] || rank_coord < dims[s] - 1;
    const long planes = (w.lo[s] > 0 && has_above) + (w.hi[s] > 0 && has_below);
    bool self = false;
    for (const Block& blk : b.pattern.blocks) self = self || (blk.offset[s] == 0 && !blk.send.empty());
    EXPECT_EQ(plan->stats().messages, planes + (self ? 1 : 0)) << c.describe();
    EXPECT_FALSE(plan->block_copied_at_start()) << c.describe();
  }
}

TEST(WholePlanes, AskedToCopyTheBlockTheFieldMayChangeInFlight) {
  // An overlapped blocked pass writes the block while the exchange is in flight: asked to copy the
  // block at start, the plan copies the planes it sends, so the halo gets the values of start even
  // when every cell of the block changes before finish; withdrawn, it sends from the field again.
  // Rank 0 starts, overwrites its block and only then lets the others post their receives (planes of
  // 117 KB: beyond every eager limit, so nothing is on its way before they do).
  test::Case c{3, {64, 64, 0}, {true, true, true}, "star", 1, 3};
  c.n[2] = 4L * test::world_size();
  const test::BuiltPattern b = slab(c);
  const core::FieldLayout& L = b.pattern.layout;
  const bool first = test::world_rank() == 0;
  auto plan = make_halo_plan("p2p", {b.pattern, MPI_COMM_WORLD, &b.geo});
  const long planes = plan->stats().messages;
  EXPECT_EQ(planes, 3);
  for (const bool copy : {true, false, true}) {
    plan->copy_block_at_start(copy);
    EXPECT_EQ(plan->block_copied_at_start(), copy);
    EXPECT_EQ(plan->stats().messages, planes);
    core::Field f("f", L);
    auto h = Kokkos::create_mirror_view(f.view);
    test::fill_encoded(c, L, h);
    Kokkos::deep_copy(f.view, h);
    if (first) {
      plan->start(f);
      if (copy) {
        const auto block = Kokkos::subview(f.view, std::pair<long, long>(L.halo.lo[2], L.halo.lo[2] + L.box.n[2]),
                                           std::pair<long, long>(L.halo.lo[1], L.halo.lo[1] + L.box.n[1]),
                                           std::pair<long, long>(L.halo.lo[0], L.halo.lo[0] + L.box.n[0]));
        Kokkos::deep_copy(block, -5.0);  // what a pass would write meanwhile
        Kokkos::fence();
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (!first) plan->start(f);
    plan->finish(f);
    Kokkos::deep_copy(h, f.view);
    auto original = Kokkos::create_mirror(f.view);  // its own copy (a mirror view is f itself on the host)
    test::fill_encoded(c, L, original);
    for (long z = 0; z < L.box.n[2]; ++z)  // the block as it was at start, the halo as received
      for (long y = 0; y < L.box.n[1]; ++y)
        for (long x = 0; x < L.box.n[0]; ++x) {
          const long k = z + L.halo.lo[2], j = y + L.halo.lo[1], i = x + L.halo.lo[0];
          h(k, j, i) = original(k, j, i);
        }
    EXPECT_EQ(test::wrong_cells(c, L, h, "p2p", copy ? "copied at start" : "from the field"), 0);
  }
}

TEST(WholePlanes, OffAcrossWallsAndWithStagedBuffers) {
  test::Case c{3, {6, 5, 0}, {false, true, true}, "star", 1, 2};
  c.n[2] = 4L * test::world_size();
  const test::BuiltPattern walls = slab(c);  // walls in x: a plane's x ghost cells are the walls', not a copy's
  EXPECT_TRUE(make_halo_plan("p2p", {walls.pattern, MPI_COMM_WORLD, &walls.geo})->block_copied_at_start());
  c.periodic = {true, true, true};
  const test::BuiltPattern periodic = slab(c);
  EXPECT_FALSE(make_halo_plan("p2p", {periodic.pattern, MPI_COMM_WORLD, &periodic.geo})->block_copied_at_start());
  // comm.gpu_aware_mpi off: MPI sees only staged host buffers, never the field.
  EXPECT_TRUE(make_halo_plan("p2p", {periodic.pattern, MPI_COMM_WORLD, &periodic.geo, core::GpuAwareMpiInput::kOff})
                  ->block_copied_at_start());
  EXPECT_EQ(test::wrong_cells_after_exchange(c, "p2p", 0, core::GpuAwareMpiInput::kOff), 0);
}

}  // namespace
}  // namespace cartex
