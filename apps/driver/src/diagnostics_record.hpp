#pragma once
// The diagnostics of a run at one step: integral of u, min, max and the sine mode's error.
#include <string>

#include "cartex/core/field.hpp"
#include "cartex/kernels/diagnostics.hpp"
#include "driver.hpp"

namespace cartex::app {

// One row of the diagnostics history.
struct Record {
  long step;
  double time;
  kernels::FieldStats stats;
  double integral;  // integral of u: sum of u times the cell volume (heat: the total heat)
  double error;     // relative max error against the exact discrete sine solution; < 0 if not exact
};

// What the summary calls the integral of u (both equations), and its history column.
inline constexpr const char* kIntegralLabel = "integral of u";
inline constexpr const char* kIntegralColumn = "integral";

// The diagnostics of `u` at `step` (collective).
Record diagnose(const Setup& s, const core::Field& u, long step, const kernels::Allreduce& reduce);

// The progress line's diagnostic part: "integral=+1.0e+00  max=...  err=...".
std::string describe(const Record& r);

}  // namespace cartex::app
