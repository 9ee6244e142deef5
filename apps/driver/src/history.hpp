#pragma once
// The diagnostics history of a run: one record per diagnosed step (integral of u, min, max, sine
// error), kept in checkpoints as a table and written to DIR/history.csv (docs/output.md).
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/io/table.hpp"
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

// The history as a table for checkpoints, and back: a restarted run continues the same rows.
// Reading also takes the column name total_heat, which checkpoints before the rename to
// `integral` used.
io::Table history_table(const std::vector<Record>& rows);
std::vector<Record> history_records(const io::Table& t);

// The diagnostics of `u` at `step` (collective).
Record diagnose(const Setup& s, const Field& u, long step, const kernels::Allreduce& reduce);

// The progress line's diagnostic part: "integral=+1.0e+00  max=...  err=...".
std::string describe(const Record& r);

// Writes DIR/history.csv atomically (NAME.tmp, then rename); rank 0 only.
void write_history(const std::string& dir, const std::vector<Record>& rows);

}  // namespace cartex::app
