// halobench's recommendation: the fastest backend that runs itself, its margin over the runner-up,
// and whether that margin is inside the noise (CIs overlap, or it lost a series).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recommend.hpp"

namespace {

halobench::Result timed(const std::string& name, double median, double half_ci, std::vector<double> series) {
  halobench::Result r;
  r.backend = r.chosen = name;
  r.time.median = median;
  r.time.ci_low = median - half_ci;
  r.time.ci_high = median + half_ci;
  r.series_medians = std::move(series);
  return r;
}

TEST(Recommend, ClearWinnerIsOutsideTheNoise) {
  const std::vector<halobench::Result> results{timed("mpi_neighbor_alltoallw", 10.0, 0.1, {10, 10, 10}),
                                               timed("p2p", 5.0, 0.1, {5, 5, 5}),
                                               timed("cart_direct", 6.0, 0.1, {6, 6, 6})};
  const auto rec = halobench::recommend(results);
  EXPECT_EQ(rec.best, "p2p");
  EXPECT_EQ(rec.runner_up, "cart_direct");
  EXPECT_DOUBLE_EQ(rec.margin, 0.2);
  EXPECT_FALSE(rec.cis_overlap);
  EXPECT_EQ(rec.series_won, 3);
  EXPECT_EQ(rec.series, 3);
  EXPECT_FALSE(rec.within_noise());
  EXPECT_EQ(halobench::recommendation_line(rec),
            "recommendation: comm.backend: p2p (20.0% faster than the runner-up cart_direct; outside the noise: "
            "the 95% CIs are apart, faster in 3 of 3 series)");
}

TEST(Recommend, OverlappingCisAreNoise) {
  const auto rec = halobench::recommend({timed("p2p", 5.0, 0.2, {5, 5}), timed("cart_direct", 5.1, 0.2, {5.1, 5.1})});
  EXPECT_TRUE(rec.cis_overlap);
  EXPECT_TRUE(rec.within_noise());
  EXPECT_NE(halobench::recommendation_line(rec).find("within the noise: the 95% CIs overlap"), std::string::npos);
}

TEST(Recommend, ALostSeriesIsNoiseEvenWithCisApart) {
  const auto rec = halobench::recommend({timed("p2p", 5.0, 0.01, {4, 4, 7}), timed("cart_direct", 5.5, 0.01, {5, 5, 6})});
  EXPECT_FALSE(rec.cis_overlap);
  EXPECT_EQ(rec.series_won, 2);
  EXPECT_TRUE(rec.within_noise());
  EXPECT_NE(halobench::recommendation_line(rec).find("faster in 2 of 3 series; either will do"), std::string::npos);
}

TEST(Recommend, AutoAndFailedBackendsAreNoCandidates) {
  halobench::Result autopick = timed("auto", 1.0, 0.1, {1});
  autopick.chosen = "p2p";
  halobench::Result broken = timed("cart_forwarding", 0.5, 0.1, {0.5});
  broken.wrong_cells = 3;
  const auto rec = halobench::recommend({timed("mpi_neighbor_alltoallw", 2.0, 0.1, {2}), autopick, broken});
  EXPECT_EQ(rec.best, "mpi_neighbor_alltoallw");
  EXPECT_EQ(rec.runner_up, "");
  EXPECT_EQ(halobench::recommendation_line(rec), "recommendation: comm.backend: mpi_neighbor_alltoallw (the only backend timed)");
}

TEST(Recommend, NothingTimed) {
  EXPECT_EQ(halobench::recommendation_line(halobench::recommend({})),
            "recommendation: none (no backend passed its correctness check)");
}

}  // namespace
