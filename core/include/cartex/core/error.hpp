#pragma once
// Error types shared by every layer: an InputError is the user's to fix (exit code 2), any other
// cartex::Error is a failure of the run (exit code 1).
#include <stdexcept>
#include <string>

namespace cartex {

// A failure of a run that is not the input's fault (MPI error, I/O error, broken invariant).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input: the message already names the file, line, column and key path ("FILE:L:C: key: ...").
class InputError : public Error {
 public:
  using Error::Error;
};

// Throws cartex::Error with `what` if `condition` is false; for invariants, not for user input.
inline void require(bool condition, const std::string& what) {
  if (!condition) throw Error(what);
}

}  // namespace cartex
