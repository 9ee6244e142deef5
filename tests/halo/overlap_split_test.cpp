// The overlap split of step 1 (HaloPattern::inner / rim): together exactly the cells step 1 updates,
// no cell in both, no inner cell reads a halo cell the exchange writes (so the inner sweep may run
// while the exchange is in flight), and faces on a wall (fixed boundary values, never exchanged) keep
// their cells inner: a block with walls only has no rim. The same for remote_inner / remote_rim
// against the halo other ranks send (the self blocks being copied inside start).
#include <gtest/gtest.h>
#include <mpi.h>

#include <set>

#include "cartex/halo/geometry.hpp"
#include "cartex/halo/pattern.hpp"
#include "halo_test_support.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

std::set<long> cells_of(const std::vector<core::LineRun>& runs) {
  std::set<long> s;
  for (const core::LineRun& r : runs)
    for (long i = 0; i < r.length; ++i) s.insert(r.start + i);
  return s;
}

HaloPattern pattern_for(const test::Case& c, int rank, int size) {
  HaloGeometry geo(core::Decomposition(c.grid(), core::ProcessGrid::create(c.grid(), {0, 0, 0}, size)), c.stencil(), c.k);
  return make_halo_pattern(geo, rank);
}

TEST(OverlapSplit, InnerReadsNoReceivedCellAndWithRimCoversStepOne) {
  const int rank = test::world_rank(), size = test::world_size();
  for (const test::Case& c : test::exchange_cases(size)) {
    const HaloPattern p = pattern_for(c, rank, size);
    std::set<long> received;
    for (const Block& b : p.blocks) received.insert(b.recv.begin(), b.recv.end());
    const std::set<long> inner = cells_of(p.inner), rim = cells_of(p.rim), step1 = cells_of(p.update[0]);
    std::set<long> both = inner;
    both.insert(rim.begin(), rim.end());
    EXPECT_EQ(both, step1) << c.describe();
    EXPECT_EQ(both.size(), inner.size() + rim.size()) << c.describe() << ": a cell in inner and rim";
    const long sy = p.layout.extent(0), sz = sy * p.layout.extent(1);
    long bad = 0;
    for (long cell : inner)
      for (const core::Offset& o : c.stencil().offsets)
        bad += received.count(cell + o[2] * sz + o[1] * sy + o[0]) > 0;
    EXPECT_EQ(bad, 0) << c.describe() << ": inner cells read received halo cells";

    // Against the remote halo: the same, with the halo cells this rank sends itself allowed.
    std::set<long> remote;
    for (const Block& b : p.blocks)
      if (b.source != rank) remote.insert(b.recv.begin(), b.recv.end());
    const std::set<long> rinner = cells_of(p.remote_inner), rrim = cells_of(p.remote_rim);
    std::set<long> rboth = rinner;
    rboth.insert(rrim.begin(), rrim.end());
    EXPECT_EQ(rboth, step1) << c.describe();
    EXPECT_EQ(rboth.size(), rinner.size() + rrim.size()) << c.describe() << ": a cell in remote inner and rim";
    EXPECT_GE(rinner.size(), inner.size()) << c.describe();
    long rbad = 0;
    for (long cell : rinner)
      for (const core::Offset& o : c.stencil().offsets)
        rbad += remote.count(cell + o[2] * sz + o[1] * sy + o[0]) > 0;
    EXPECT_EQ(rbad, 0) << c.describe() << ": remote inner cells read halo cells other ranks send";
  }
}

// split_cycle: inner steps 1..k run as one pass while the exchange is in flight, then the rims step by
// step (pattern.hpp). Checked with all faces in flight and with only those another rank lies across:
//   - inner_j and rim_j are disjoint and together step j's cells;
//   - no inner cell is a halo cell the exchange writes, and inner step 1 reads none;
//   - inner step j reads only inner cells of step j - 1, or cells step j - 1 does not update and the
//     exchange does not write (walls, or the halo a rank sent itself before);
//   - rim step j reads no cell inner steps j + 1, j + 3, ... write (it would read their values, not
//     step j - 1's).
TEST(OverlapSplit, CycleSplitRunsInnerPassesWhileTheExchangeIsInFlight) {
  const int rank = test::world_rank(), size = test::world_size();
  for (const test::Case& c : test::exchange_cases(size)) {
    HaloGeometry geo(core::Decomposition(c.grid(), core::ProcessGrid::create(c.grid(), {0, 0, 0}, size)), c.stencil(), c.k);
    const HaloPattern p = make_halo_pattern(geo, rank);
    const long sy = p.layout.extent(0), sz = sy * p.layout.extent(1);
    for (const bool remote_only : {false, true}) {
      // remote_only: the blocks this rank sends itself are complete when start returns.
      std::set<long> in_flight;
      for (const Block& b : p.blocks)
        if (!remote_only || b.source != rank) in_flight.insert(b.recv.begin(), b.recv.end());
      const CycleSplit split = split_cycle(geo, p, remote_only);
      const std::string what = c.describe() + (remote_only ? ", remote faces" : ", all faces");
      ASSERT_EQ(split.inner.size(), static_cast<size_t>(c.k)) << what;
      ASSERT_EQ(split.rim.size(), static_cast<size_t>(c.k)) << what;
      std::vector<std::set<long>> inner, rim, step;
      for (int j = 1; j <= c.k; ++j) {
        // Inner: step j's cells inside the split's box (kernels::CycleRegions clips to it).
        std::set<long> in;
        const core::Box& box = split.inner[j - 1];
        for (const long cell : cells_of(p.update[j - 1]))
          if (box.contains({cell % sy, cell / sy % p.layout.extent(1), cell / sz})) in.insert(cell);
        inner.push_back(in);
        rim.push_back(cells_of(split.rim[j - 1]));
        step.push_back(cells_of(p.update[j - 1]));
      }
      for (int j = 1; j <= c.k; ++j) {
        std::set<long> both = inner[j - 1];
        both.insert(rim[j - 1].begin(), rim[j - 1].end());
        EXPECT_EQ(both, step[j - 1]) << what << " step " << j;
        EXPECT_EQ(both.size(), inner[j - 1].size() + rim[j - 1].size()) << what << " step " << j << ": a cell in inner and rim";
        long written = 0, early = 0, late = 0;
        for (long cell : inner[j - 1]) {
          written += in_flight.count(cell);
          for (const core::Offset& o : c.stencil().offsets) {
            const long read = cell + o[2] * sz + o[1] * sy + o[0];
            if (j == 1)
              early += in_flight.count(read) > 0;
            else
              early += !inner[j - 2].count(read) && (step[j - 2].count(read) || in_flight.count(read));
          }
        }
        for (int later = j + 1; later <= c.k; later += 2)  // the steps that write the buffer step j reads
          for (long cell : rim[j - 1])
            for (const core::Offset& o : c.stencil().offsets) late += inner[later - 1].count(cell + o[2] * sz + o[1] * sy + o[0]);
        EXPECT_EQ(written, 0) << what << " step " << j << ": inner cells the exchange writes";
        EXPECT_EQ(early, 0) << what << " step " << j << ": inner reads of cells not ready during the exchange";
        EXPECT_EQ(late, 0) << what << " step " << j << ": rim reads of cells the next inner step overwrote";
      }
    }
  }
}

TEST(OverlapSplit, WallsKeepTheirCellsInner) {
  // One rank, no periodic dimension: the exchange writes nothing, every cell of the block is inner.
  const test::Case c{3, {9, 8, 7}, {false, false, false}, "box", 2, 1};
  const HaloPattern p = pattern_for(c, 0, 1);
  EXPECT_TRUE(p.rim.empty());
  EXPECT_EQ(cells_of(p.inner).size(), 9u * 8u * 7u);
  // Periodic in x only: the x halo is received (from this rank itself), so the x rim returns.
  const test::Case x{3, {9, 8, 7}, {true, false, false}, "box", 2, 1};
  const HaloPattern q = pattern_for(x, 0, 1);
  EXPECT_EQ(cells_of(q.rim).size(), 2u * 2u * 8u * 7u);
  // ... but it is this rank's own: against the remote halo there is no rim.
  EXPECT_TRUE(q.remote_rim.empty());
}

}  // namespace
}  // namespace cartex
