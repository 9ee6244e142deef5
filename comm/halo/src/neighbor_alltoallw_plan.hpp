#pragma once
// Backend "mpi_neighbor_alltoallw": the MPI-standard baseline of both papers. A dist-graph
// communicator (MPI_Dist_graph_create_adjacent, neighbors in block order, MPI_PROC_NULL left out)
// and MPI_Ineighbor_alltoallw over the field itself with one derived datatype per block.
#include <mpi.h>

#include "cartex/halo/halo_plan.hpp"
#include "zero_copy_blocks.hpp"

namespace cartex::detail {

// The mpi_neighbor_alltoallw plan.
class NeighborAlltoallwPlan final : public HaloPlan {
 public:
  NeighborAlltoallwPlan(const HaloPattern& pattern, MPI_Comm comm);
  ~NeighborAlltoallwPlan() override;
  NeighborAlltoallwPlan(const NeighborAlltoallwPlan&) = delete;
  NeighborAlltoallwPlan& operator=(const NeighborAlltoallwPlan&) = delete;

  void start(Field& f) override;
  void finish(Field& f) override;
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "mpi_neighbor_alltoallw"; }

 private:
  ZeroCopyBlocks blocks_;
  MPI_Comm graph_ = MPI_COMM_NULL;
  MPI_Request request_ = MPI_REQUEST_NULL;
  HaloStats stats_;
};

}  // namespace cartex::detail
