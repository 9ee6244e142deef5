// Backend "mpi_neighbor_alltoallw": the MPI-standard baseline of both papers. A dist-graph
// communicator (MPI_Dist_graph_create_adjacent, neighbors in block order, MPI_PROC_NULL left out)
// and MPI_Ineighbor_alltoallw over the field itself with one derived datatype per block.
#include <Kokkos_Core.hpp>

#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include "communicators.hpp"
#include "mpi_check.hpp"
#include "schedule_stats.hpp"
#include "staging/zero_copy.hpp"
#include "start_finish.hpp"

namespace cartex::halo {

namespace {

// The mpi_neighbor_alltoallw plan.
class NeighborAlltoallwPlan final : public HaloPlan {
 public:
  NeighborAlltoallwPlan(const HaloPattern& p, MPI_Comm comm)
      : blocks_(p, true), graph_(block_graph(p, comm)), stats_(direct_stats(p, 1)) {}
  ~NeighborAlltoallwPlan() override {
    // Before the types go; a destructor does not throw.
    if (request_[0] != MPI_REQUEST_NULL) check_mpi_nothrow(MPI_Wait(request_.data(), MPI_STATUS_IGNORE), "MPI_Wait");
  }
  NeighborAlltoallwPlan(const NeighborAlltoallwPlan&) = delete;
  NeighborAlltoallwPlan& operator=(const NeighborAlltoallwPlan&) = delete;

  void start(core::Field& f) override {
    state_.start();
    core::PhaseScope post(core::Phase::kHaloPost);
    Kokkos::fence();  // the field's last update must be complete before MPI reads it
    double* base = f.view.data();
    check_mpi(MPI_Ineighbor_alltoallw(base, blocks_.send_counts.data(), blocks_.send_displs.data(), blocks_.send_types.data(),
                                      base, blocks_.recv_counts.data(), blocks_.recv_displs.data(),
                                      blocks_.recv_types.data(), graph_.get(), request_.data()),
              "MPI_Ineighbor_alltoallw");
  }
  void progress() override {
    if (!state_.done() && test_all(request_, 1)) state_.complete();
  }
  bool done() const override { return state_.done(); }
  void finish(core::Field&) override {
    core::PhaseScope wait(core::Phase::kHaloWait);  // entered also when progress completed the exchange
    if (!state_.done()) wait_all(request_, 1);
    state_.finish();
  }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "mpi_neighbor_alltoallw"; }

 private:
  ZeroCopyBlocks blocks_;
  OwnedComm graph_;
  std::vector<MPI_Request> request_{MPI_REQUEST_NULL};  // one, as test_all / wait_all take it
  HaloStats stats_;
  StartFinish state_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_mpi_neighbor_alltoallw(const PlanInputs& in) {
  return std::make_unique<NeighborAlltoallwPlan>(in.pattern, in.comm);
}

std::optional<HaloStats> predict_mpi_neighbor_alltoallw(const PlanInputs& in) { return direct_stats(in.pattern, 1); }

}  // namespace cartex::halo
