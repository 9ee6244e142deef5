#pragma once
// Backend "graph_combining": the halo neighborhood as a general MPI distributed graph (sources and
// targets without MPI_PROC_NULL, so the neighborhoods of boundary ranks differ) exchanged with the
// message-combining neighbor alltoallv of comm/graph (paper 002: friends share common out-neighbors,
// Algorithm 1 pattern, Algorithm 3 schedule) on contiguous buffers packed by Kokkos kernels.
#include <Kokkos_Core.hpp>

#include <cartex/graph/collectives.hpp>

#include <memory>

#include "cartex/core/kokkos_compat.hpp"
#include "cartex/halo/halo_plan.hpp"
#include "packing.hpp"

namespace cartex::detail {

// The graph_combining plan.
class GraphCombiningPlan final : public HaloPlan {
 public:
  GraphCombiningPlan(const HaloPattern& pattern, MPI_Comm comm);
  ~GraphCombiningPlan() override;
  GraphCombiningPlan(const GraphCombiningPlan&) = delete;
  GraphCombiningPlan& operator=(const GraphCombiningPlan&) = delete;

  void start(Field& f) override;
  void finish(Field& f) override;
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "graph_combining"; }
  std::string note() const override { return note_; }

 private:
  HaloPattern pattern_;
  PackList send_list_, recv_list_;
  Kokkos::View<double*> send_buf_, recv_buf_;
  host_mirror_t<Kokkos::View<double*>> send_host_, recv_host_;
  MPI_Comm graph_ = MPI_COMM_NULL;
  std::unique_ptr<graph::Plan> plan_;
  HaloStats stats_;
  std::string note_;
};

}  // namespace cartex::detail
