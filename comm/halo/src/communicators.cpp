#include "communicators.hpp"

#include <vector>

#include "cartex/halo/pattern.hpp"
#include "mpi_check.hpp"

namespace cartex::halo {

OwnedComm duplicate(MPI_Comm comm) {
  MPI_Comm dup = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup");
  return OwnedComm(dup);
}

OwnedComm block_graph(const HaloPattern& p, MPI_Comm comm) {
  std::vector<int> sources, targets;
  for (const auto& r : p.recvs()) sources.push_back(r.rank);
  for (const auto& s : p.sends()) targets.push_back(s.rank);
  MPI_Comm graph = MPI_COMM_NULL;
  check_mpi(MPI_Dist_graph_create_adjacent(comm, static_cast<int>(sources.size()), sources.data(), MPI_UNWEIGHTED,
                                           static_cast<int>(targets.size()), targets.data(), MPI_UNWEIGHTED, MPI_INFO_NULL,
                                           0, &graph),
            "MPI_Dist_graph_create_adjacent");
  return OwnedComm(graph);
}

}  // namespace cartex::halo
