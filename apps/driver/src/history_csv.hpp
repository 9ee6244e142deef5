#pragma once
// The diagnostics history written as DIR/history.csv (docs/output.md).
#include <string>
#include <vector>

#include "diagnostics_record.hpp"

namespace cartex::app {

// Writes DIR/history.csv atomically (NAME.tmp, then rename) into the existing directory DIR; rank 0
// only. Throws cartex::core::Error naming the file and the OS error.
// Columns: step, time, the first field's integral, min, max, each further field's NAME_integral,
// NAME_min, NAME_max, then sine_rel_error.
void write_history(const std::string& dir, const std::vector<Record>& rows, const std::vector<std::string>& fields);

}  // namespace cartex::app
