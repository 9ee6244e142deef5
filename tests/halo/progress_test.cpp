// progress() advances every plan of the registry without blocking: after start and enough progress()
// calls on every rank (bounded in time), done() is true and the halo is already complete before
// finish is called; multi-phase schedules (cart_forwarding: one phase per dimension, the comm/cart
// combining schedules: one per dimension) get there only if progress posts their later phases.
// progress() and done() on an idle or finished plan change nothing.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "cartex/core/error.hpp"
#include "cartex/halo/backends.hpp"
#include "built_pattern.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

// Every view cell (halo included) gets a value naming its rank and position, so any halo cell an
// exchange writes changes.
void fill(core::Field& f, int rank) {
  auto h = Kokkos::create_mirror_view(f.view);
  double* p = h.data();
  for (size_t i = 0; i < h.size(); ++i) p[i] = 1e7 * (rank + 1) + static_cast<double>(i);
  Kokkos::deep_copy(f.view, h);
}

// True if a and b hold the same bits everywhere.
bool same(const core::Field& a, const core::Field& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view);
  for (size_t i = 0; i < ha.size(); ++i)
    if (ha.data()[i] != hb.data()[i]) return false;
  return true;
}

// A periodic 3D 27pt case on every rank (several phases with messages on 2+ ranks).
test::BuiltPattern build() { return test::build_pattern({3, {12, 10, 8}, {true, true, true}, "box", 1, 2}); }

// Calls progress() until done() or 20 seconds have passed; true if done.
bool progress_until_done(HaloPlan& plan) {
  const double until = MPI_Wtime() + 20.0;
  while (!plan.done() && MPI_Wtime() < until) plan.progress();
  return plan.done();
}

TEST(HaloProgress, EveryOverlappingPlanCompletesThroughProgressAlone) {
  const int rank = test::world_rank();
  const test::BuiltPattern b = build();
  for (const Backend& row : backends()) {
    if (!row.overlaps) continue;  // blocking plans complete inside start
    if (!halo::runs_here(row)) continue;
    auto plan = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo});
    core::Field expected("expected", b.pattern.layout), f("f", b.pattern.layout);
    fill(expected, rank);
    plan->exchange(expected);
    fill(f, rank);
    EXPECT_TRUE(plan->done()) << row.name << ": idle";
    plan->start(f);
    EXPECT_FALSE(plan->done()) << row.name << ": done before any progress";
    EXPECT_TRUE(progress_until_done(*plan)) << row.name << ": progress() did not complete the exchange";
    EXPECT_TRUE(same(f, expected)) << row.name << ": the halo is not complete before finish";
    plan->finish(f);
    EXPECT_TRUE(same(f, expected)) << row.name << ": finish changed the halo";
    // Idle again: progress changes nothing, the plan still exchanges.
    plan->progress();
    EXPECT_TRUE(plan->done()) << row.name;
    fill(f, rank);
    plan->exchange(f);
    EXPECT_TRUE(same(f, expected)) << row.name << ": exchange after progress on an idle plan";
  }
}

TEST(HaloProgress, SelfBlocksAreCompleteWhenStartReturns) {
  const int rank = test::world_rank();
  const test::BuiltPattern b = build();
  std::vector<long> self_cells;
  for (const Block& block : b.pattern.blocks)
    if (block.source == rank) self_cells.insert(self_cells.end(), block.recv.begin(), block.recv.end());
  int plans = 0;
  for (const Backend& row : backends()) {
    if (!halo::runs_here(row)) continue;
    auto plan = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo});
    if (!plan->self_complete_at_start()) continue;
    ++plans;
    core::Field expected("expected", b.pattern.layout), f("f", b.pattern.layout);
    fill(expected, rank);
    plan->exchange(expected);
    fill(f, rank);
    plan->start(f);
    auto he = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), expected.view);
    auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
    long wrong = 0;
    for (long c : self_cells) wrong += hf.data()[c] != he.data()[c];
    EXPECT_EQ(wrong, 0) << row.name << ": self halo cells not copied by start";
    plan->finish(f);
    EXPECT_TRUE(same(f, expected)) << row.name;
  }
  EXPECT_GE(plans, 2);  // p2p and p2p_persistent
}

TEST(HaloProgress, EveryPlanExchangesFieldsMadeAfterOthersWereFreed) {
  // Plans bound to field buffers (zero-copy, persistent requests) meet a new field each round, whose
  // buffer may reuse a freed one's address, while still exchanging the first field.
  const int rank = test::world_rank();
  const test::BuiltPattern b = build();
  for (const Backend& row : backends()) {
    if (!halo::runs_here(row)) continue;
    auto plan = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo});
    core::Field expected("expected", b.pattern.layout), kept("kept", b.pattern.layout);
    fill(expected, rank);
    plan->exchange(expected);
    for (int round = 0; round < 3; ++round) {
      core::Field f("f", b.pattern.layout);
      fill(f, rank);
      plan->exchange(f);
      EXPECT_TRUE(same(f, expected)) << row.name << " round " << round;
      fill(kept, rank);
      plan->exchange(kept);
      EXPECT_TRUE(same(kept, expected)) << row.name << " round " << round << ": the field exchanged before";
    }
  }
}

TEST(HaloProgress, ProgressOnEveryIdlePlanIsHarmless) {
  const test::BuiltPattern b = build();
  for (const Backend& row : backends()) {
    if (!halo::runs_here(row)) continue;
    auto plan = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo});
    core::Field f("f", b.pattern.layout);
    EXPECT_NO_THROW(plan->progress()) << row.name;
    EXPECT_TRUE(plan->done()) << row.name;
    plan->start(f);
    EXPECT_THROW(plan->start(f), core::Error) << row.name;
    plan->finish(f);
    EXPECT_TRUE(plan->done()) << row.name;
    EXPECT_NO_THROW(plan->progress()) << row.name;
    EXPECT_THROW(plan->finish(f), core::Error) << row.name;
  }
}

}  // namespace
}  // namespace cartex
