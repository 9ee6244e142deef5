#pragma once
// The diagnostics history as the table a checkpoint keeps, and back: a restarted run continues the
// same rows.
#include <vector>

#include "cartex/io/table.hpp"
#include "diagnostics_record.hpp"

namespace cartex::app {

// The history rows as a checkpoint table: the first field's columns sum, min, max, integral, and for
// each further field `name` of `fields` name_sum, name_min, name_max, name_integral.
io::Table history_table(const std::vector<Record>& rows, const std::vector<std::string>& fields);

// The rows of a checkpoint's table; also takes the column name total_heat, which checkpoints before
// the rename to `integral` used. Throws Error if a column is missing.
std::vector<Record> history_records(const io::Table& t, const std::vector<std::string>& fields);

}  // namespace cartex::app
