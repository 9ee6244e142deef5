#pragma once
// Internal: atomic replacement of files (write NAME.tmp, flush it to disk, rename to NAME).
#include <string>

#include "cartex/io/output_dir.hpp"  // write_text_atomically

namespace cartex::io {

// fsyncs `tmp`, renames it to `path` and fsyncs the directory, so after a crash either the old or
// the new `path` exists, never a partial one; throws cartex::core::Error on failure.
void rename_durably(const std::string& tmp, const std::string& path);

}  // namespace cartex::io
