#pragma once
// The diagnostics of a run at one step: for each field of the state its integral, min, max and mean;
// the sine mode's error of the first.
#include <string>
#include <vector>

#include "cartex/core/state.hpp"
#include "cartex/kernels/diagnostics.hpp"
#include "driver.hpp"

namespace cartex::app {

// One field's diagnostics at a step.
struct FieldRecord {
  kernels::FieldStats stats;
  double integral = 0;  // sum of the field times the cell volume (heat: the total heat)
};

// One row of the diagnostics history.
struct Record {
  long step = 0;
  double time = 0;
  std::vector<FieldRecord> fields;  // one per field of the state, in the equation's order
  double error = -1;  // the first field's relative max error against the exact discrete sine solution; < 0 if not exact
};

// What the summary calls the integral of u (both equations), and its history column.
inline constexpr const char* kIntegralLabel = "integral of u";
inline constexpr const char* kIntegralColumn = "integral";

// The diagnostics of the state `u` at `step` (collective).
Record diagnose(const Setup& s, const core::State& u, long step, const kernels::Allreduce& reduce);

// The progress line's diagnostic part: "integral=+1.0e+00  max=...  err=..." (and each further field's max).
std::string describe(const Setup& s, const Record& r);

}  // namespace cartex::app
