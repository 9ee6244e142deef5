// Errors of comm/cart: an MPI error class plus a message, thrown by the C++ API and turned into a
// return code plus CX_Error_string text by the C API.
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace cartex::cart {

// A failed Cartesian collective call; error_class() is an MPI error class (MPI_ERR_ARG, ...).
class Error : public std::runtime_error {
 public:
  Error(int error_class, const std::string& message)
      : std::runtime_error(message), error_class_(error_class) {}
  // The MPI error class to return from the C API.
  int error_class() const { return error_class_; }

 private:
  int error_class_;
};

// Throws Error(MPI_ERR_OTHER, what + MPI's message) when an MPI call did not succeed.
void check_mpi(int rc, const char* what);

// For destructors and cleanup before a rethrow, where throwing would terminate or hide the first
// error: when rc is not MPI_SUCCESS, prints one line "cartex: WHAT failed: MPI's message" to stderr.
void check_mpi_nothrow(int rc, const char* what) noexcept;

}  // namespace cartex::cart
