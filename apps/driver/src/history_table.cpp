#include "history_table.hpp"

#include <fmt/format.h>

#include "cartex/core/error.hpp"

namespace cartex::app {

namespace {

const std::vector<std::string> kColumns{"step", "time", "sum", "min", "max", kIntegralColumn, "sine_rel_error"};

// Index of column `name` in `t` (or of its old name `alias`); throws Error if absent.
size_t column(const io::Table& t, const std::string& name, const std::string& alias = "") {
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c] == name || (!alias.empty() && t.columns[c] == alias)) return c;
  throw core::Error(fmt::format("checkpoint history has no column {} (columns: {})", name, fmt::join(t.columns, ",")));
}

}  // namespace

io::Table history_table(const std::vector<Record>& rows) {
  io::Table t{kColumns, {}};
  for (const auto& r : rows)
    t.values.insert(t.values.end(), {double(r.step), r.time, r.stats.sum, r.stats.min, r.stats.max, r.integral, r.error});
  return t;
}

std::vector<Record> history_records(const io::Table& t) {
  const size_t width = t.columns.size();
  const size_t step = column(t, "step"), time = column(t, "time"), sum = column(t, "sum"), min = column(t, "min"),
               max = column(t, "max"), integral = column(t, kIntegralColumn, "total_heat"),
               error = column(t, "sine_rel_error");
  std::vector<Record> rows;
  for (size_t at = 0; at + width <= t.values.size(); at += width) {
    const double* v = &t.values[at];
    rows.push_back({static_cast<long>(v[step]), v[time], kernels::FieldStats{v[sum], v[min], v[max]}, v[integral], v[error]});
  }
  return rows;
}

}  // namespace cartex::app
