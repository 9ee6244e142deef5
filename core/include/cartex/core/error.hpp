#pragma once
// Error types shared by every layer: an InputError is the user's to fix (exit code 2), any other
// cartex::core::Error is a failure of the run (exit code 1).
#include <stdexcept>
#include <string>

namespace cartex::core {

// A failure of a run that is not the input's fault (MPI error, I/O error, broken invariant).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `text` with every control byte (below 0x20, and 0x7f) shown as \n, \t, \r or \xNN, so text quoted
// from an input (values, key names, yaml-cpp's messages) cannot break a message into lines.
inline std::string escape_control(const std::string& text) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    else out += ch;
  }
  return out;
}

// Bad input: the message already names the file, line, column and key path ("FILE:L:C: key: ...");
// control bytes in it are escaped (escape_control), so it is always one line.
class InputError : public Error {
 public:
  explicit InputError(const std::string& what) : Error(escape_control(what)) {}
};

// Throws cartex::core::Error with `what` if `condition` is false; for invariants, not for user input.
inline void require(bool condition, const std::string& what) {
  if (!condition) throw Error(what);
}

}  // namespace cartex::core
