#include "cartex/core/mpi_check.hpp"

#include <cstdio>
#include <string>

#include "cartex/core/error.hpp"

namespace cartex::core {

std::string mpi_error_text(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;  // best effort: only for the message
  return std::string(text, static_cast<size_t>(len));
}

void check_mpi(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  int rank = -1;
  if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS) rank = -1;  // only for the message
  const std::string text = mpi_error_text(rc);
  throw Error(std::string(call) + " failed on rank " + std::to_string(rank) + (text.empty() ? "" : ": " + text));
}

void check_mpi_nothrow(int rc, const char* call) noexcept {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];  // no std::string here: allocation could throw
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;  // only for the message
  std::fprintf(stderr, "cartex: %s failed: %.*s\n", call, len, text);
}

int comm_rank(MPI_Comm comm) {
  int rank = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}

int comm_size(MPI_Comm comm) {
  int size = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

}  // namespace cartex::core
