// MPI error text for comm/graph exceptions.
#include "cartex/graph/error.hpp"

#include <mpi.h>

#include "cartex/core/mpi_check.hpp"

namespace cartex::graph {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  throw Error(std::string(what) + " failed: " + core::mpi_error_text(rc));
}

void check_mpi_nothrow(int rc, const char* what) noexcept { core::check_mpi_nothrow(rc, what); }

}  // namespace cartex::graph
