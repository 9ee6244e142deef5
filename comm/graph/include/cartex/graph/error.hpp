// Errors of comm/graph: the failing MPI call or argument, thrown by every C++ entry point.
#pragma once

#include <stdexcept>
#include <string>

namespace cartex::graph {

// A failed graph-collective call (bad argument, unsupported communicator or failed MPI call).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Throws Error(what + MPI's message) when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* what);

}  // namespace cartex::graph
