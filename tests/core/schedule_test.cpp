// When periodic events are due (core/schedule.hpp): every N steps, or at the first step whose time
// reaches each multiple of a time interval, also for intervals far below the time step.
#include <gtest/gtest.h>

#include <vector>

#include "cartex/core/schedule.hpp"

namespace cartex::core {
namespace {

std::vector<long> due_steps(const Interval& every, const Config& cfg) {
  std::vector<long> out;
  for (long s = 0; s <= cfg.steps; ++s)
    if (interval_due(every, cfg, s)) out.push_back(s);
  return out;
}

Config ten_steps_of(double dt) {
  Config cfg;
  cfg.steps = 10;
  cfg.dt = dt;
  return cfg;
}

TEST(Schedule, EveryNSteps) { EXPECT_EQ(due_steps({3, 0.0}, ten_steps_of(0.1)), (std::vector<long>{3, 6, 9})); }

TEST(Schedule, FirstStepReachingEachMultipleOfTheInterval) {
  // t = 0.1 per step: 0.25 is reached at 0.3, 0.5 at 0.5, 0.75 at 0.8, 1.0 at 1.0.
  EXPECT_EQ(due_steps({0, 0.25}, ten_steps_of(0.1)), (std::vector<long>{3, 5, 8, 10}));
}

TEST(Schedule, IntervalsNoLongerThanAStepAreDueEveryStep) {
  const std::vector<long> every_step{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_EQ(due_steps({0, 0.1}, ten_steps_of(0.1)), every_step);
  EXPECT_EQ(due_steps({0, 0.03}, ten_steps_of(0.1)), every_step);
  EXPECT_EQ(due_steps({0, 5e-324}, ten_steps_of(0.1)), every_step);  // t / interval is infinite
  EXPECT_EQ(due_steps({0, 1e-300}, ten_steps_of(1e10)), every_step);
}

TEST(Schedule, NothingWithoutAnInterval) { EXPECT_TRUE(due_steps({0, 0.0}, ten_steps_of(0.1)).empty()); }

}  // namespace
}  // namespace cartex::core
