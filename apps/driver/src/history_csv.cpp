#include "history_csv.hpp"

#include <fmt/format.h>

#include "cartex/io/output_dir.hpp"

namespace cartex::app {

void write_history(const std::string& dir, const std::vector<Record>& rows, const std::vector<std::string>& fields) {
  std::string text = fmt::format("step,time,{},min,max", kIntegralColumn);
  for (std::size_t q = 1; q < fields.size(); ++q) text += fmt::format(",{0}_{1},{0}_min,{0}_max", fields[q], kIntegralColumn);
  text += ",sine_rel_error\n";
  for (const auto& r : rows) {
    text += fmt::format("{},{:.17g}", r.step, r.time);
    for (const FieldRecord& f : r.fields) text += fmt::format(",{:.17g},{:.17g},{:.17g}", f.integral, f.stats.min, f.stats.max);
    text += fmt::format(",{}\n", r.error >= 0 ? fmt::format("{:.6e}", r.error) : std::string());
  }
  io::write_text_atomically(dir + "/history.csv", text);
}

}  // namespace cartex::app
