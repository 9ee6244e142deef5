#include "cartex/core/schedule.hpp"

#include <cmath>

namespace cartex::core {

namespace {

// Relative tolerance (in intervals) for "the time reaches k * interval".
constexpr double kIntervalTolerance = 1e-9;

// How many whole intervals the time at `step` has reached.
double intervals_reached(const Config& cfg, long step, double interval) {
  return std::floor(step_time(cfg, step) / interval + kIntervalTolerance);
}

}  // namespace

double step_time(const Config& cfg, long step) {
  if (cfg.end_time > 0 && step == cfg.steps) return cfg.end_time;
  return static_cast<double>(step) * cfg.dt;
}

bool interval_due(const Interval& every, const Config& cfg, long step) {
  if (step <= 0) return false;
  if (every.steps > 0) return step % every.steps == 0;
  if (every.time <= 0) return false;
  // An interval no longer than the step is reached by every step; counting intervals would overflow
  // for tiny ones (t / 5e-324 is infinite at every step, so never "more").
  if (step_time(cfg, step) - step_time(cfg, step - 1) >= every.time) return true;
  return intervals_reached(cfg, step, every.time) > intervals_reached(cfg, step - 1, every.time);
}

}  // namespace cartex::core
