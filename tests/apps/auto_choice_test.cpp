// A measured `auto` is one choice on every rank: each rank's times differ (injected here, skewed by
// rank and by a per-rank jitter), the search is fed the slowest rank's (agreed_seconds), and every rank
// ends on the same pick: the one the slowest-rank times give. A trial ends after one cycle only when
// that cycle is more than AutoStepper::kCutMargin slower than the fastest candidate of its phase.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "auto_stepper.hpp"
#include "cartex/core/ordered_search.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

// Rank r's time for tile t: a valley at 64 rows on rank 0, at 128 on the others, with a jitter.
double injected(long t, int rank) {
  const double valley = rank == 0 ? 6.0 : 7.0;
  return (1.0 + 0.2 * rank) * (std::abs(std::log2(static_cast<double>(t)) - valley) + 1.0) + 0.01 * ((rank * 7 + t) % 5);
}

TEST(AutoChoice, EveryRankPicksWhatTheSlowestRanksTimesPick) {
  const int rank = test::world_rank(), size = test::world_size();
  const std::vector<long> tiles{8, 16, 32, 64, 128, 256, 0};
  const auto time = [](long t, int r) { return t == 0 ? 100.0 : injected(t, r); };
  core::OrderedSearch agreed(tiles, 2), oracle(tiles, 2);
  while (!agreed.done()) agreed.record(app::agreed_seconds(time(agreed.next(), rank), MPI_COMM_WORLD));
  while (!oracle.done()) {
    double slowest = 0;
    for (int r = 0; r < size; ++r) slowest = std::max(slowest, time(oracle.next(), r));
    oracle.record(slowest);
  }
  EXPECT_EQ(agreed.best(), oracle.best());
  std::vector<long> picks(size);
  const long mine = agreed.best();
  ASSERT_EQ(MPI_Allgather(&mine, 1, MPI_LONG, picks.data(), 1, MPI_LONG, MPI_COMM_WORLD), MPI_SUCCESS);
  for (int r = 0; r < size; ++r) EXPECT_EQ(picks[r], picks[0]) << "rank " << r;
  if (size > 1) EXPECT_EQ(agreed.best(), 128);  // the slower ranks' valley decides
}

TEST(AutoChoice, ATrialEndsAfterOneCycleOnlyWhenClearlySlower) {
  const std::vector<long> tiles{8, 16, 32, 64, 128};
  core::OrderedSearch search(tiles, 2);
  EXPECT_FALSE(app::AutoStepper::loses_at_first_cycle(100.0, search));  // nothing to compare with yet
  search.record(2.0);  // 32 rows
  const double margin = app::AutoStepper::kCutMargin;
  EXPECT_FALSE(app::AutoStepper::loses_at_first_cycle(2.0 * (1 + margin) * 0.99, search));
  EXPECT_TRUE(app::AutoStepper::loses_at_first_cycle(2.0 * (1 + margin) * 1.01, search));
  search.record(1.5);  // 64 rows: the fastest so far is the reference
  EXPECT_TRUE(app::AutoStepper::loses_at_first_cycle(1.5 * (1 + margin) * 1.01, search));
  EXPECT_FALSE(app::AutoStepper::loses_at_first_cycle(1.6, search));
}

}  // namespace
}  // namespace cartex
