// A CSV results file: a header, then one row per benchmark cell.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace benchstats {

// Writes rows of already formatted fields; an empty path or an unwritable file writes nothing (the
// latter with a message on stderr), so benchmarks still print their table.
class CsvWriter {
 public:
  CsvWriter(const std::string& path, const std::string& header);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  // True if rows go to a file.
  bool open() const { return file_ != nullptr; }
  // Appends one row, fields joined by commas.
  void row(const std::vector<std::string>& fields);

 private:
  std::FILE* file_ = nullptr;
};

// A number with `digits` decimals, as printf's %.Nf writes it.
std::string fixed(double x, int digits = 4);

}  // namespace benchstats
