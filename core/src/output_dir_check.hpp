#pragma once
// Internal: whether a run could create and write its output directory, checked before it runs.
#include <string>

namespace cartex::core::detail {

// Why directory `dir` could not be created or written to (a path component is not a directory, or
// the nearest existing ancestor is not writable); empty when it could. Creates nothing.
std::string output_dir_problem(const std::string& dir);

}  // namespace cartex::core::detail
