#pragma once
// Collects one string from every rank on rank 0, in rank order (for dry-run listings).
#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/core/mpi_check.hpp"

namespace cartex::app {

// Returns every rank's `text` on rank 0 (empty vector elsewhere). Collective.
inline std::vector<std::string> gather_text(const std::string& text, MPI_Comm comm) {
  int rank = 0, size = 1;
  core::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  core::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  int len = static_cast<int>(text.size());
  std::vector<int> lens(rank == 0 ? size : 0), displs(rank == 0 ? size : 0);
  core::check_mpi(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm), "MPI_Gather");
  std::string all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) displs[r] = total, total += lens[r];
    all.resize(total);
  }
  core::check_mpi(MPI_Gatherv(text.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, comm),
                  "MPI_Gatherv");
  std::vector<std::string> out;
  if (rank == 0)
    for (int r = 0; r < size; ++r) out.push_back(all.substr(displs[r], lens[r]));
  return out;
}

}  // namespace cartex::app
