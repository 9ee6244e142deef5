#pragma once
// Simulated time of a step and when periodic events (field files, checkpoints) are due: every N
// steps, or at the first step whose time reaches each multiple of a time interval (docs/output.md).
#include "cartex/core/config.hpp"

namespace cartex::core {

// The simulated time at `step`: step * dt, and exactly run.end_time at the last step of a run given one.
double step_time(const Config& cfg, long step);

// How often an event recurs: every `steps` steps or every `time` of simulated time (0 = that form unused).
struct Interval {
  long steps = 0;
  double time = 0.0;
  bool active() const { return steps > 0 || time > 0; }
};

// True if `every` is due at `step` (> 0): step is a multiple of every.steps, or step's time is the
// first to reach a multiple k * every.time (k >= 1) with a tolerance of 1e-9 intervals, so that
// t = k * interval computed as step * dt does not miss by a rounding error. An interval no longer
// than the step's time step is due at every step.
bool interval_due(const Interval& every, const Config& cfg, long step);

}  // namespace cartex::core
