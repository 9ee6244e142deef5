// CSV rows as plain comma-joined text: every field the benchmarks write is a number or a name
// without commas, so no quoting is needed.
#include "benchstats/csv.hpp"

#include <fmt/format.h>

namespace benchstats {

CsvWriter::CsvWriter(const std::string& path, const std::string& header) {
  if (path.empty()) return;
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return;
  }
  std::fprintf(file_, "%s\n", header.c_str());
}

CsvWriter::~CsvWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void CsvWriter::row(const std::vector<std::string>& fields) {
  if (file_ == nullptr) return;
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + fields[i];
  std::fprintf(file_, "%s\n", line.c_str());
}

std::string fixed(double x, int digits) { return fmt::format("{:.{}f}", x, digits); }

}  // namespace benchstats
