#include "history_csv.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "cartex/core/error.hpp"

namespace cartex::app {

void write_history(const std::string& dir, const std::vector<Record>& rows) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/history.csv", tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw core::Error(fmt::format("cannot write {}", tmp));
    out << fmt::format("step,time,{},min,max,sine_rel_error\n", kIntegralColumn);
    for (const auto& r : rows)
      out << fmt::format("{},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", r.step, r.time, r.integral, r.stats.min,
                         r.stats.max, r.error >= 0 ? fmt::format("{:.6e}", r.error) : std::string());
    if (!out.flush()) throw core::Error(fmt::format("cannot write {}", tmp));
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace cartex::app
