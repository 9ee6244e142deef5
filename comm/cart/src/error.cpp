// Error reporting: check_mpi turns a failed MPI call into an Error.
#include "cartex/cart/error.hpp"

#include <cstdio>
#include <string>

namespace cartex::cart {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;  // best effort: only for the message
  int error_class = MPI_ERR_OTHER;
  if (MPI_Error_class(rc, &error_class) != MPI_SUCCESS) error_class = MPI_ERR_OTHER;  // best effort
  throw Error(error_class, std::string(what) + ": " + std::string(text, static_cast<std::size_t>(len)));
}

void check_mpi_nothrow(int rc, const char* what) noexcept {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;  // best effort: only for the message
  std::fprintf(stderr, "cartex: %s failed: %.*s\n", what, len, text);
}

}  // namespace cartex::cart
