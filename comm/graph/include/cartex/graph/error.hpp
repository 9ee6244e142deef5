// Errors of comm/graph: the failing MPI call or argument, thrown by every C++ entry point.
#pragma once

#include <string>

#include "cartex/core/error.hpp"

namespace cartex::graph {

// A failed graph-collective call (bad argument, unsupported communicator or failed MPI call); a
// cartex::core::Error, so main reports it like any other.
class Error : public cartex::core::Error {
 public:
  explicit Error(const std::string& message) : cartex::core::Error(message) {}
};

// Throws Error(what + MPI's message) when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* what);

// For destructors, which must not throw: when rc is not MPI_SUCCESS, prints one line
// "cartex: WHAT failed: MPI's message" to stderr (cartex::core::check_mpi_nothrow).
void check_mpi_nothrow(int rc, const char* what) noexcept;

}  // namespace cartex::graph
