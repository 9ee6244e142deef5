#pragma once
// Internal: atomic replacement of files (write NAME.tmp, flush it to disk, rename to NAME).
#include <string>

namespace cartex::io {

// fsyncs `tmp`, renames it to `path` and fsyncs the directory, so after a crash either the old or
// the new `path` exists, never a partial one; throws cartex::core::Error on failure.
void rename_durably(const std::string& tmp, const std::string& path);

// Writes `text` to `path` atomically (via `path`.tmp and rename_durably); throws cartex::core::Error.
void write_text_atomically(const std::string& path, const std::string& text);

}  // namespace cartex::io
