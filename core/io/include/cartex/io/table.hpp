#pragma once
// A small table of doubles with named columns (the diagnostics history), stored row by row.
#include <string>
#include <vector>

namespace cartex::io {

// Named columns and row-major values; values.size() is a multiple of columns.size().
struct Table {
  std::vector<std::string> columns;
  std::vector<double> values;

  // Number of complete rows.
  long rows() const { return columns.empty() ? 0 : static_cast<long>(values.size() / columns.size()); }
};

}  // namespace cartex::io
