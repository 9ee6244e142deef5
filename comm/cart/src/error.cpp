// Error reporting: check_mpi turns a failed MPI call into an Error.
#include "cartex/cart/error.hpp"

#include <string>

namespace cartex::cart {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  int error_class = MPI_ERR_OTHER;
  MPI_Error_class(rc, &error_class);
  throw Error(error_class, std::string(what) + ": " + std::string(text, static_cast<std::size_t>(len)));
}

}  // namespace cartex::cart
