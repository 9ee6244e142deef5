// Backend "mpi_neighbor_alltoallw": the MPI-standard baseline of both papers. A dist-graph
// communicator (MPI_Dist_graph_create_adjacent, neighbors in block order, MPI_PROC_NULL left out)
// and MPI_Ineighbor_alltoallw over the field itself with one derived datatype per block. N fields
// together: one call whose block types are MPI struct types spanning the fields (staging/zero_copy.hpp),
// built per tuple of field displacements and kept (at most kTuples of them).
#include <Kokkos_Core.hpp>

#include <map>
#include <memory>

#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include "communicators.hpp"
#include "mpi_check.hpp"
#include "schedule_stats.hpp"
#include "staging/zero_copy.hpp"
#include "start_finish.hpp"

namespace cartex::halo {

namespace {

// Datatype sets a plan keeps (u / u_next double buffering needs two); past it they are rebuilt.
constexpr size_t kTuples = 8;

// The mpi_neighbor_alltoallw plan.
class NeighborAlltoallwPlan final : public HaloPlan {
 public:
  NeighborAlltoallwPlan(const HaloPattern& p, MPI_Comm comm, int fields)
      : pattern_(exchange_part(p)), fields_(fields), graph_(block_graph(p, comm)), stats_(for_fields(direct_stats(p, 1), fields)) {}
  ~NeighborAlltoallwPlan() override {
    // Before the types go; a destructor does not throw.
    if (request_[0] != MPI_REQUEST_NULL) check_mpi_nothrow(MPI_Wait(request_.data(), MPI_STATUS_IGNORE), "MPI_Wait");
  }
  NeighborAlltoallwPlan(const NeighborAlltoallwPlan&) = delete;
  NeighborAlltoallwPlan& operator=(const NeighborAlltoallwPlan&) = delete;

  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "mpi_neighbor_alltoallw");
    state_.start();
    core::PhaseScope post(core::Phase::kHaloPost);
    Kokkos::fence();  // the fields' last update must be complete before MPI reads them
    double* base = f[0].view.data();
    const ZeroCopyBlocks& b = blocks(f);
    check_mpi(MPI_Ineighbor_alltoallw(base, b.send_counts.data(), b.send_displs.data(), b.send_types.data(), base,
                                      b.recv_counts.data(), b.recv_displs.data(), b.recv_types.data(), graph_.get(),
                                      request_.data()),
              "MPI_Ineighbor_alltoallw");
  }
  void progress() override {
    if (!state_.done() && test_all(request_, 1)) state_.complete();
  }
  bool done() const override { return state_.done(); }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "mpi_neighbor_alltoallw");
    core::PhaseScope wait(core::Phase::kHaloWait);  // entered also when progress completed the exchange
    if (!state_.done()) wait_all(request_, 1);
    state_.finish();
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "mpi_neighbor_alltoallw"; }

 private:
  // The block types of f's fields, built on the first start with their displacements (one field: one
  // set, whatever the field). Called between exchanges only: no type in use is freed. The key is
  // made in storage the plan keeps, so finding the types allocates nothing.
  const ZeroCopyBlocks& blocks(const FieldSet& f) {
    field_bases(f, bases_);
    field_displacements(bases_, key_);
    auto it = blocks_.find(key_);
    if (it != blocks_.end()) return *it->second;
    if (blocks_.size() >= kTuples) blocks_.clear();
    auto built = std::make_unique<ZeroCopyBlocks>(pattern_, true, nullptr, bases_);
    return *blocks_.emplace(key_, std::move(built)).first->second;
  }

  HaloPattern pattern_;
  int fields_;
  std::map<std::vector<MPI_Aint>, std::unique_ptr<ZeroCopyBlocks>> blocks_;  // per displacement tuple
  std::vector<const double*> bases_;  // the started set's first elements (reused storage)
  std::vector<MPI_Aint> key_;         // and their displacements: the key into blocks_
  OwnedComm graph_;
  std::vector<MPI_Request> request_{MPI_REQUEST_NULL};  // one, as test_all / wait_all take it
  HaloStats stats_;
  StartFinish state_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_mpi_neighbor_alltoallw(const PlanInputs& in) {
  return std::make_unique<NeighborAlltoallwPlan>(in.pattern, in.comm, in.fields);
}

std::optional<HaloStats> predict_mpi_neighbor_alltoallw(const PlanInputs& in) {
  return for_fields(direct_stats(in.pattern, 1), in.fields);
}

}  // namespace cartex::halo
