#pragma once
// The diagnostics history written as DIR/history.csv (docs/output.md).
#include <string>
#include <vector>

#include "diagnostics_record.hpp"

namespace cartex::app {

// Writes DIR/history.csv atomically (NAME.tmp, then rename) into the existing directory DIR; rank 0
// only. Throws cartex::core::Error naming the file and the OS error.
void write_history(const std::string& dir, const std::vector<Record>& rows);

}  // namespace cartex::app
