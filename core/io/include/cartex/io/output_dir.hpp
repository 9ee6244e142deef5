#pragma once
// The output directory of a run: made ready before the first step, and the small text files a run
// writes into it (fields.xmf, history.csv, the restart marker).
#include <string>

namespace cartex::io {

// Creates `dir` (and its parents) and writes and removes a probe file in it: the proof that the run
// can write its output, made before step 1. Returns why it cannot ("cannot create directory DIR: OS
// error", "cannot write a file in DIR: OS error"), empty when it can. On one rank: no communication.
std::string prepare_output_dir(const std::string& dir);

// Writes `text` to `path` atomically (via `path`.tmp, flushed to disk and renamed); throws
// cartex::core::Error naming the file and the OS error.
void write_text_atomically(const std::string& path, const std::string& text);

}  // namespace cartex::io
