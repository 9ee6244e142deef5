#include "neighbor_alltoallw_plan.hpp"

#include "cartex/core/error.hpp"
#include "cartex/core/phase_profile.hpp"

namespace cartex::detail {

NeighborAlltoallwPlan::NeighborAlltoallwPlan(const HaloPattern& p, MPI_Comm comm) : blocks_(p, true) {
  require_host_accessible_memory("mpi_neighbor_alltoallw");
  std::vector<int> sources, targets;
  for (size_t i = 0; i < p.neighbors.size(); ++i) {
    if (p.source[i] != MPI_PROC_NULL) sources.push_back(p.source[i]);
    if (p.target[i] != MPI_PROC_NULL) targets.push_back(p.target[i]);
  }
  MPI_Dist_graph_create_adjacent(comm, static_cast<int>(sources.size()), sources.data(), MPI_UNWEIGHTED,
                                 static_cast<int>(targets.size()), targets.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_);
  stats_.messages = p.send_messages();
  stats_.bytes = p.send_cells() * static_cast<long>(sizeof(double));
  stats_.rounds = 1;
}

NeighborAlltoallwPlan::~NeighborAlltoallwPlan() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
  if (graph_ != MPI_COMM_NULL) MPI_Comm_free(&graph_);
}

void NeighborAlltoallwPlan::start(Field& f) {
  require(request_ == MPI_REQUEST_NULL, "halo exchange started twice without finish");
  PhaseScope post(Phase::kHaloPost);
  Kokkos::fence();  // the field's last update must be complete before MPI reads it
  double* base = f.view.data();
  MPI_Ineighbor_alltoallw(base, blocks_.send_counts.data(), blocks_.send_displs.data(), blocks_.send_types.data(), base,
                          blocks_.recv_counts.data(), blocks_.recv_displs.data(), blocks_.recv_types.data(), graph_,
                          &request_);
}

void NeighborAlltoallwPlan::finish(Field&) {
  require(request_ != MPI_REQUEST_NULL, "halo exchange finished without start");
  PhaseScope wait(Phase::kHaloWait);
  MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

}  // namespace cartex::detail
