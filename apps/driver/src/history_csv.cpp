#include "history_csv.hpp"

#include <fmt/format.h>

#include "cartex/io/output_dir.hpp"

namespace cartex::app {

void write_history(const std::string& dir, const std::vector<Record>& rows) {
  std::string text = fmt::format("step,time,{},min,max,sine_rel_error\n", kIntegralColumn);
  for (const auto& r : rows)
    text += fmt::format("{},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", r.step, r.time, r.integral, r.stats.min, r.stats.max,
                        r.error >= 0 ? fmt::format("{:.6e}", r.error) : std::string());
  io::write_text_atomically(dir + "/history.csv", text);
}

}  // namespace cartex::app
