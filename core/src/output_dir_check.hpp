#pragma once
// Internal: whether a run could create and write its output directory, checked before it runs.
#include <string>

namespace cartex::core::detail {

// Why directory `dir` could not be created or written to (a path component is not a directory; the
// nearest existing ancestor is on a kernel file system such as proc or sysfs, on a read-only mount,
// or not writable); empty when it could. Creates nothing: what only writing tells (a quota, a server's
// root squashing) the run finds out by writing a probe file before step 1 (io::prepare_output_dir).
std::string output_dir_problem(const std::string& dir);

}  // namespace cartex::core::detail
