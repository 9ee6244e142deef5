// MPI error text for comm/graph exceptions.
#include "cartex/graph/error.hpp"

#include <mpi.h>

#include "cartex/core/mpi_check.hpp"

namespace cartex::graph {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;  // best effort: only for the message
  throw Error(std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

void check_mpi_nothrow(int rc, const char* what) noexcept { core::check_mpi_nothrow(rc, what); }

}  // namespace cartex::graph
