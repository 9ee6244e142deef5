// Schedule metrics, machine independent: Table 1 and Figure 2 of the ICPP'19 paper, plus the
// structural invariants of Propositions 3.2 and 3.3.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cartex/cart/reduce_schedule.hpp"
#include "cartex/cart/schedule.hpp"
#include "cartex/cart/neighborhood_families.hpp"
#include "cartex/cart/tree.hpp"

namespace cc = cartex::cart;

// Table 1: d = 2..5, n = 3, 4, 5, f = -1, zero vector excluded.
TEST(CartSchedule, Table1) {
  const std::map<std::pair<int, int>, long long> alltoall_v = {
      {{2, 3}, 12},  {{2, 4}, 24},   {{2, 5}, 40},   {{3, 3}, 54},  {{3, 4}, 144},  {{3, 5}, 300},
      {{4, 3}, 216}, {{4, 4}, 768},  {{4, 5}, 2000}, {{5, 3}, 810}, {{5, 4}, 3840}, {{5, 5}, 12500}};
  for (const auto& [dn, v] : alltoall_v) {
    const auto [d, n] = dn;
    const cc::Offsets offsets(d, cc::dnf_offsets(d, n, -1));
    int t = 1;
    for (int k = 0; k < d; ++k) t *= n;
    t -= 1;
    SCOPED_TRACE("d=" + std::to_string(d) + " n=" + std::to_string(n));
    ASSERT_EQ(offsets.t(), t);
    const cc::Schedule a2a = cc::alltoall_schedule(offsets);
    const cc::Schedule ag = cc::allgather_schedule(offsets);
    EXPECT_EQ(a2a.rounds(), d * (n - 1));
    EXPECT_EQ(a2a.volume(), v);
    EXPECT_EQ(a2a.phase_count(), d);
    EXPECT_EQ(ag.rounds(), d * (n - 1));
    EXPECT_EQ(ag.volume(), t);
    const cc::Schedule direct = cc::direct_schedule(offsets, cc::Collective::alltoall);
    EXPECT_EQ(direct.rounds(), t);
    EXPECT_EQ(direct.volume(), t);
    const cc::ReduceSchedule red = cc::ReduceSchedule::combining(offsets);
    EXPECT_EQ(red.rounds(), d * (n - 1));
    EXPECT_EQ(red.volume(), t);
  }
}

// Figure 2: V counts tree edges (blocks sent per process): 12 in increasing dimension order,
// 6 (7 nodes including the root, the paper's "V = 7") in the increasing-C_k order we use.
TEST(CartSchedule, Figure2) {
  const cc::Offsets offsets(3, {-2, 1, 1, -1, 1, 1, 1, 1, 1, 2, 1, 1});
  const cc::Schedule ours = cc::allgather_schedule(offsets);
  EXPECT_EQ(ours.volume(), 6);
  EXPECT_EQ(ours.rounds(), 6);
  EXPECT_EQ(cc::increasing_ck_order(offsets), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(cc::AllgatherTree(offsets, {1, 2, 0}).nodes().size(), 7u);
  const cc::Schedule increasing = cc::allgather_schedule(offsets, {0, 1, 2});
  EXPECT_EQ(increasing.volume(), 12);
  EXPECT_EQ(cc::AllgatherTree(offsets, {0, 1, 2}).nodes().size(), 13u);
}

// Proposition 3.2: alltoall V = sum of z_i, C = sum of C_k, also with repeats, zero vectors and
// offsets beyond any grid; every block ends in its receive slot after exactly z_i hops.
TEST(CartSchedule, AlltoallInvariants) {
  const cc::Offsets offsets(3, {0, 0, 0, 1, 2, 0, 1, 2, 0, -7, 0, 3, 0, 0, 5, 2, 2, 2, 0, 0, 0});
  const cc::Schedule s = cc::alltoall_schedule(offsets);
  long long z = 0;
  int ck = 0;
  for (int i = 0; i < offsets.t(); ++i) z += offsets.nonzeros(i);
  for (int k = 0; k < 3; ++k) ck += offsets.distinct_nonzero(k);
  EXPECT_EQ(s.volume(), z);
  EXPECT_EQ(s.rounds(), ck);
  EXPECT_EQ(s.local_copies().size(), 2u);
  std::map<int, int> hops;
  std::map<int, cc::Slot> last;
  for (const auto& phase : s.phases())
    for (const auto& round : phase.rounds) {
      std::set<std::pair<int, int>> written;
      for (const auto& tr : round.transfers) {
        ++hops[tr.to.index];
        last[tr.to.index] = tr.to;
        // Algorithm 1: a round never reads and writes the same place.
        EXPECT_FALSE(tr.from.buffer == tr.to.buffer && tr.from.index == tr.to.index);
      }
    }
  for (int i = 0; i < offsets.t(); ++i) {
    EXPECT_EQ(hops[i], offsets.nonzeros(i));
    if (offsets.nonzeros(i) > 0) EXPECT_EQ(last[i].buffer, cc::Buffer::recv);
  }
}

// In every allgather phase no slot is both read and written (so rounds may run concurrently),
// and every slot is written at most once.
TEST(CartSchedule, AllgatherSlotsWrittenOnce) {
  const std::vector<std::pair<int, std::vector<int>>> cases = {
      {3, cc::dnf_offsets(3, 4, -1)},
      {2, cc::moore_offsets(2, 3)},
      {4, cc::von_neumann_offsets(4, 2)},
      {3, {1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 2, 0, 1}}};
  for (const auto& [d, flat] : cases) {
    const cc::Offsets offsets(d, flat);
    const cc::Schedule s = cc::allgather_schedule(offsets);
    std::set<std::pair<int, int>> ever;
    for (const auto& phase : s.phases()) {
      std::set<std::pair<int, int>> read, wrote;
      for (const auto& round : phase.rounds)
        for (const auto& tr : round.transfers) {
          read.insert({static_cast<int>(tr.from.buffer), tr.from.index});
          EXPECT_TRUE(wrote.insert({static_cast<int>(tr.to.buffer), tr.to.index}).second);
          EXPECT_TRUE(ever.insert({static_cast<int>(tr.to.buffer), tr.to.index}).second);
        }
      for (const auto& w : wrote) EXPECT_EQ(read.count(w), 0u);
    }
  }
}
