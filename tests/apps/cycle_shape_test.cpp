// The cycle shapes of apps/driver/src/cycle_shape.hpp: every row of its table from the settings that
// name it, and the settings that must not change it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cycle_shape.hpp"

namespace cartex {
namespace {

using app::CycleKind;

struct Row {
  app::CycleSettings settings;  // k, overlap, tiles, block copied at start, refreshed walls, previous level
  CycleKind kind;
  bool previous_level_exchange;
};

TEST(CycleShape, TheTable) {
  const std::vector<Row> rows = {
      // No overlap: the steps one by one (the interior sweep for k = 1), or one blocked pass.
      {{1, false, false, false, false, false}, CycleKind::kExchangeSweep, false},
      {{1, false, false, true, true, true}, CycleKind::kExchangeSweep, false},  // leapfrog, k = 1: no previous level
      {{4, false, false, false, false, false}, CycleKind::kExchangeRegions, false},
      {{4, false, false, false, false, true}, CycleKind::kExchangeRegions, true},
      {{1, false, true, false, false, false}, CycleKind::kExchangeBlocked, false},  // a given tile_y with k = 1
      {{3, false, true, true, false, false}, CycleKind::kExchangeBlocked, false},
      {{3, false, true, false, true, true}, CycleKind::kExchangeBlocked, true},
      // Overlap without tiles: step 1 overlapped, then regions.
      {{1, true, false, false, false, false}, CycleKind::kOverlapRegions, false},
      {{2, true, false, true, true, true}, CycleKind::kOverlapRegions, true},
      // Overlap with tiles: the whole pass in flight only where the plan copied its block at start and
      // no wall is refreshed; else step 1 overlapped, then a blocked pass.
      {{3, true, true, true, false, false}, CycleKind::kOverlapPass, false},
      {{3, true, true, true, false, true}, CycleKind::kOverlapPass, true},
      {{3, true, true, false, false, false}, CycleKind::kOverlapBlocked, false},
      {{3, true, true, true, true, false}, CycleKind::kOverlapBlocked, false},
      {{1, true, true, true, false, false}, CycleKind::kOverlapBlocked, false},  // k = 1: no pass after step 1
  };
  for (const Row& r : rows) {
    const app::CycleShape shape = app::cycle_shape(r.settings);
    const app::CycleSettings& s = r.settings;
    const std::string at = "k " + std::to_string(s.k) + (s.overlap ? ", overlap" : "") + (s.tiles ? ", tiles" : "") +
                           (s.block_copied_at_start ? ", block copied" : "") + (s.refreshed_walls ? ", refreshed walls" : "") +
                           (s.previous_level ? ", previous level" : "");
    EXPECT_EQ(shape.kind, r.kind) << at << ": " << app::cycle_kind_name(shape.kind) << ", expected " << app::cycle_kind_name(r.kind);
    EXPECT_EQ(shape.exchanges_previous_level, r.previous_level_exchange) << at;
    EXPECT_EQ(shape.overlapped(), s.overlap) << at;
    EXPECT_EQ(shape.blocked(), s.tiles) << at;
  }
}

TEST(CycleShape, EveryKindHasItsName) {
  const std::vector<std::string> names = {"exchange_sweep", "exchange_regions", "exchange_blocked",
                                          "overlap_regions", "overlap_blocked",  "overlap_pass"};
  for (std::size_t q = 0; q < names.size(); ++q) EXPECT_EQ(app::cycle_kind_name(static_cast<CycleKind>(q)), names[q]);
}

}  // namespace
}  // namespace cartex
