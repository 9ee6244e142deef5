// benchstats: the Tukey filter, both quantile rules (cartbench/halobench interpolate, graphbench
// takes the lower order statistic) and the barrier-synchronised timing loop.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "benchstats/csv.hpp"
#include "benchstats/summary.hpp"
#include "benchstats/timing.hpp"

namespace {

TEST(BenchStats, InterpolatedMedianOfEvenCount) {
  const auto s = benchstats::summarize({4.0, 1.0, 3.0, 2.0}, 3.0);
  EXPECT_EQ(s.samples, 4);
  EXPECT_EQ(s.kept, 4);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
}

TEST(BenchStats, LowerMedianOfEvenCount) {
  const auto s = benchstats::summarize({4.0, 1.0, 3.0, 2.0}, 3.0, benchstats::Quantile::lower);
  EXPECT_DOUBLE_EQ(s.median, 2.0);
}

TEST(BenchStats, SeriesMediansSplitSamplesInOrder) {
  EXPECT_EQ(benchstats::series_medians({1, 3, 2, 10, 30, 20}, 2), (std::vector<double>{2, 20}));
  EXPECT_EQ(benchstats::series_medians({1, 2, 3, 4}, 2), (std::vector<double>{1.5, 3.5}));
  EXPECT_EQ(benchstats::series_medians({1, 2, 3, 4}, 2, benchstats::Quantile::lower), (std::vector<double>{1, 3}));
  EXPECT_TRUE(benchstats::series_medians({1, 2, 3}, 2).empty());
}

TEST(BenchStats, TukeyFenceDropsFarOutlier) {
  std::vector<double> x;
  for (int i = 1; i <= 20; ++i) x.push_back(i);
  x.push_back(1000.0);
  const auto s = benchstats::summarize(x, 3.0);
  EXPECT_EQ(s.samples, 21);
  EXPECT_EQ(s.kept, 20);
  EXPECT_DOUBLE_EQ(s.median, 10.5);
  EXPECT_LE(s.ci_low, s.median);
  EXPECT_GE(s.ci_high, s.median);
  EXPECT_LT(s.ci_high, 20.0);
}

TEST(BenchStats, MedianConfidenceIntervalIsOrderStatistics) {
  std::vector<double> x;
  for (int i = 0; i < 100; ++i) x.push_back(i);
  const auto s = benchstats::summarize(x, 3.0);
  // ranks 50 -+ 1.96 * sqrt(100) / 2 = 50 -+ 9.8 -> floor 40, ceil 60
  EXPECT_DOUBLE_EQ(s.ci_low, 40.0);
  EXPECT_DOUBLE_EQ(s.ci_high, 60.0);
}

TEST(BenchStats, TimingRunsEveryCellAndKeepsOneSamplePerRepetition) {
  int runs[2] = {0, 0};
  std::vector<benchstats::Cell> cells = {{"a", [&] { ++runs[0]; }, {}}, {"b", [&] { ++runs[1]; }, {}}};
  const benchstats::Method m{3, 4, 5, 3.0, 7};
  const auto sums = benchstats::time_and_summarize(cells, m, MPI_COMM_WORLD);
  ASSERT_EQ(sums.size(), 2u);
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(runs[c], 3 + 4 * 5);
    EXPECT_EQ(cells[c].samples.size(), 20u);
    EXPECT_EQ(sums[c].samples, 20);
  }
}

TEST(BenchStats, FixedMatchesPrintf) {
  EXPECT_EQ(benchstats::fixed(1.23456), "1.2346");
  EXPECT_EQ(benchstats::fixed(0.5, 2), "0.50");
}

}  // namespace
