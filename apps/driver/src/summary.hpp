#pragma once
// The summary a run prints at its end: set-up, steps, speed, halo traffic, diagnostics, checksum.
#include <cstdint>
#include <string>
#include <vector>

#include "cartex/core/phase_profile.hpp"
#include "diagnostics_record.hpp"
#include "driver.hpp"
#include "auto_stepper.hpp"
#include "stop_control.hpp"

namespace cartex::app {

// What the time loop hands to the summary (this rank's values).
struct LoopOutcome {
  long first = 0;              // the step the run began from (its checkpoint's step on a restart)
  long last = 0;               // the last step computed (earlier than run.steps when stopped)
  double seconds = 0;          // wall time of the stepping, output inside the loop excluded
  core::PhaseTotals phases;          // time per phase over the loop
  std::vector<Record> history; // the diagnosed steps, the first and the last included
  std::uint64_t checksum = 0;  // of the final field (the same on every rank)
  std::string output;          // what the output writer wrote (empty: nothing)
  std::string stop_checkpoint; // written because a signal or the wall-time limit stopped the run
};

// What one exchange of these fields moves, as the summary and --dry-run print it: "1 field (u)",
// "2 fields (u, v) together".
std::string fields_text(const std::vector<std::string>& fields);

// Prints the summary on rank 0 after gathering the min/avg/max of per-rank values (collective).
void print_summary(const Setup& s, const AutoStepper& steps, const StopControl& stop, const LoopOutcome& o);

}  // namespace cartex::app
