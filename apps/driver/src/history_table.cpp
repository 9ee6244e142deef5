#include "history_table.hpp"

#include <fmt/format.h>

#include "cartex/core/error.hpp"

namespace cartex::app {

namespace {

// The columns of field q named `name`: plain for the first field, prefixed by the name for the others.
std::string field_column(const std::vector<std::string>& fields, std::size_t q, const std::string& name) {
  return q == 0 ? name : fields[q] + "_" + name;
}

// Index of column `name` in `t` (or of its old name `alias`); throws Error if absent.
size_t column(const io::Table& t, const std::string& name, const std::string& alias = "") {
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c] == name || (!alias.empty() && t.columns[c] == alias)) return c;
  throw core::Error(fmt::format("checkpoint history has no column {} (columns: {})", name, fmt::join(t.columns, ",")));
}

}  // namespace

io::Table history_table(const std::vector<Record>& rows, const std::vector<std::string>& fields) {
  io::Table t{{"step", "time"}, {}};
  for (std::size_t q = 0; q < fields.size(); ++q)
    for (const char* c : {"sum", "min", "max", kIntegralColumn}) t.columns.push_back(field_column(fields, q, c));
  t.columns.push_back("sine_rel_error");
  for (const auto& r : rows) {
    t.values.insert(t.values.end(), {double(r.step), r.time});
    for (const FieldRecord& f : r.fields) t.values.insert(t.values.end(), {f.stats.sum, f.stats.min, f.stats.max, f.integral});
    t.values.push_back(r.error);
  }
  return t;
}

std::vector<Record> history_records(const io::Table& t, const std::vector<std::string>& fields) {
  const size_t width = t.columns.size();
  const size_t step = column(t, "step"), time = column(t, "time"), error = column(t, "sine_rel_error");
  struct Columns {
    size_t sum, min, max, integral;
  };
  std::vector<Columns> of;
  for (std::size_t q = 0; q < fields.size(); ++q)
    of.push_back({column(t, field_column(fields, q, "sum")), column(t, field_column(fields, q, "min")),
                  column(t, field_column(fields, q, "max")),
                  column(t, field_column(fields, q, kIntegralColumn), q == 0 ? "total_heat" : "")});
  std::vector<Record> rows;
  for (size_t at = 0; at + width <= t.values.size(); at += width) {
    const double* v = &t.values[at];
    Record r;
    r.step = static_cast<long>(v[step]);
    r.time = v[time];
    r.error = v[error];
    for (const Columns& c : of) r.fields.push_back({kernels::FieldStats{v[c.sum], v[c.min], v[c.max]}, v[c.integral]});
    rows.push_back(r);
  }
  return rows;
}

}  // namespace cartex::app
