// MPI error text for comm/graph exceptions.
#include "cartex/graph/error.hpp"

#include <mpi.h>

namespace cartex::graph {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

}  // namespace cartex::graph
