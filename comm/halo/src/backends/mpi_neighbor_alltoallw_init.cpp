// Backend "mpi_neighbor_alltoallw_init": mpi_neighbor_alltoallw (the MPI-standard baseline of ICPP'19
// and EuroMPI'15) made persistent with MPI-4's persistent collectives (MPI 4.0 section 6.13,
// MPI_Neighbor_alltoallw_init; Open MPI 4.1 has it as MPIX_Neighbor_alltoallw_init, its pcollreq
// extension). The same dist-graph communicator (block_graph: neighbors in block order, so repeated
// edges between two ranks pair in the order both sides list them) and the same hindexed datatype per
// block over the field itself. It exists to separate the cost of the standard's call from the cost
// of setting it up: the request is built once and each exchange is MPI_Start, so MPI's setup of the
// neighborhood exchange (schedule, datatype analysis) is paid once instead of every exchange, as
// PETSc's -sf_neighbor_persistent does for its star forests (MPI_Neighbor_alltoallv_init there).
//
// A persistent request is bound to its buffer, and plans exchange any field of their layout: the
// plan builds one request per field buffer, collectively, on the first start with that buffer
// (like cart_zero_copy.hpp's comm/cart plans). Building is collective, so a buffer must be new on
// every rank at the same start: the plan holds each bound field's view, so a bound buffer cannot be
// freed and its address handed to another field on some ranks only, and drops the binding (a local
// MPI_Request_free) at the next start once it holds the last reference (the field is gone). Then a
// buffer is new wherever the field is, as long as every rank exchanges the same fields in the same
// order (as every caller of a collective plan does).
//
// N fields together: the request is bound to the tuple of the N field buffers, its block types MPI
// struct types spanning the fields (staging/zero_copy.hpp), so one MPI_Start moves every field in one
// message per neighbor; u / u_next double buffering binds two tuples. A tuple is dropped once any of
// its fields is gone.
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include "communicators.hpp"
#include "mpi_check.hpp"
#include "schedule_stats.hpp"
#include "staging/zero_copy.hpp"
#include "start_finish.hpp"

// Which persistent neighborhood alltoallw this MPI has, if any.
#if MPI_VERSION >= 4
#define CARTEX_NEIGHBOR_ALLTOALLW_INIT MPI_Neighbor_alltoallw_init
#define CARTEX_NEIGHBOR_ALLTOALLW_INIT_NAME "MPI_Neighbor_alltoallw_init"
#else
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define CARTEX_NEIGHBOR_ALLTOALLW_INIT MPIX_Neighbor_alltoallw_init
#define CARTEX_NEIGHBOR_ALLTOALLW_INIT_NAME "MPIX_Neighbor_alltoallw_init"
#endif
#endif

namespace cartex::halo {

#ifdef CARTEX_NEIGHBOR_ALLTOALLW_INIT

namespace {

// v's elements; never a null pointer: Open MPI's init refuses null arrays even for a rank with no
// neighbor (a non-periodic grid of one process).
template <class T>
const T* array_of(const std::vector<T>& v) {
  static const T none{};
  return v.empty() ? &none : v.data();
}

// The mpi_neighbor_alltoallw_init plan.
class NeighborAlltoallwInitPlan final : public HaloPlan {
 public:
  NeighborAlltoallwInitPlan(const HaloPattern& p, MPI_Comm comm, int fields)
      : pattern_(exchange_part(p)),
        fields_(fields),
        blocks_(p, true),
        graph_(block_graph(p, comm)),
        stats_(for_fields(direct_stats(p, 1), fields)) {}
  ~NeighborAlltoallwInitPlan() override {
    // A destructor does not throw: failures are reported. Complete, then free, before the types and graph go.
    if (running_ != MPI_REQUEST_NULL) check_mpi_nothrow(MPI_Wait(&running_, MPI_STATUS_IGNORE), "MPI_Wait");
    for (auto& [base, bound] : bound_) check_mpi_nothrow(MPI_Request_free(&bound.request), "MPI_Request_free");
  }
  NeighborAlltoallwInitPlan(const NeighborAlltoallwInitPlan&) = delete;
  NeighborAlltoallwInitPlan& operator=(const NeighborAlltoallwInitPlan&) = delete;

  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "mpi_neighbor_alltoallw_init");
    state_.start();
    core::PhaseScope post(core::Phase::kHaloPost);
    Kokkos::fence();  // the fields' last update must be complete before MPI reads them
    drop_gone_fields();
    running_ = bind(f);
    check_mpi(MPI_Start(&running_), "MPI_Start");
  }
  // MPI_Test, not test_all: MPICH 4.0.2's MPI_Testall reports MPI_ERR_IN_STATUS for a completed
  // persistent collective request although every status says MPI_SUCCESS (MPI_Test does not).
  void progress() override {
    if (state_.done()) return;
    int flag = 0;
    check_mpi(MPI_Test(&running_, &flag, MPI_STATUS_IGNORE), "MPI_Test");
    if (flag) complete();
  }
  bool done() const override { return state_.done(); }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "mpi_neighbor_alltoallw_init");
    core::PhaseScope wait(core::Phase::kHaloWait);  // entered also when progress completed the exchange
    if (!state_.done()) {
      check_mpi(MPI_Wait(&running_, MPI_STATUS_IGNORE), "MPI_Wait");
      complete();
    }
    state_.finish();
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "mpi_neighbor_alltoallw_init"; }

 private:
  // A persistent request over one tuple of field buffers, the views that keep the buffers allocated,
  // and (N > 1) the block types spanning them.
  struct Bound {
    std::vector<core::FieldView> views;
    std::unique_ptr<ZeroCopyBlocks> blocks;  // N > 1 only; one field uses blocks_
    MPI_Request request = MPI_REQUEST_NULL;
  };

  // The request bound to f's buffers, built on the first start with them (collective over graph_).
  MPI_Request bind(const FieldSet& f) {
    field_bases(f, bases_);  // the key, in storage the plan keeps: finding a bound request allocates nothing
    const auto it = bound_.find(bases_);
    if (it != bound_.end()) return it->second.request;
    const std::vector<const double*>& bases = bases_;
    Bound b;
    for (const core::Field* g : f) b.views.push_back(g->view);
    if (fields_ > 1) b.blocks = std::make_unique<ZeroCopyBlocks>(pattern_, true, nullptr, bases);
    const ZeroCopyBlocks& z = b.blocks ? *b.blocks : blocks_;
    double* base = f[0].view.data();
    check_mpi(CARTEX_NEIGHBOR_ALLTOALLW_INIT(base, array_of(z.send_counts), array_of(z.send_displs), array_of(z.send_types),
                                             base, array_of(z.recv_counts), array_of(z.recv_displs),
                                             array_of(z.recv_types), graph_.get(), MPI_INFO_NULL, &b.request),
              CARTEX_NEIGHBOR_ALLTOALLW_INIT_NAME);
    return bound_.emplace(bases, std::move(b)).first->second.request;
  }
  // True if this plan holds the last reference to one of the bound fields (the field is gone).
  static bool gone(const Bound& b) {
    for (const auto& v : b.views)
      if (v.use_count() == 1) return true;
    return false;
  }
  // Frees the requests of tuples with a field only this plan still references (none is active between
  // exchanges).
  void drop_gone_fields() {
    for (auto it = bound_.begin(); it != bound_.end();) {
      if (!gone(it->second)) {
        ++it;
        continue;
      }
      check_mpi(MPI_Request_free(&it->second.request), "MPI_Request_free");
      it = bound_.erase(it);
    }
  }
  // The started request is complete: it stays allocated (inactive) in bound_ for the next start.
  void complete() {
    running_ = MPI_REQUEST_NULL;
    state_.complete();
  }

  HaloPattern pattern_;
  int fields_;
  ZeroCopyBlocks blocks_;  // MPI may read these arrays as long as a request built on them exists
  OwnedComm graph_;
  std::map<std::vector<const double*>, Bound> bound_;  // one persistent request per tuple of field buffers
  std::vector<const double*> bases_;                   // the started set's first elements (reused storage)
  // The started request (a copy of its handle in bound_: completing a persistent request keeps the
  // handle), or null.
  MPI_Request running_ = MPI_REQUEST_NULL;
  HaloStats stats_;
  StartFinish state_;
};

}  // namespace

const char* mpi_neighbor_alltoallw_init_unavailable() { return nullptr; }

std::unique_ptr<HaloPlan> make_mpi_neighbor_alltoallw_init(const PlanInputs& in) {
  return std::make_unique<NeighborAlltoallwInitPlan>(in.pattern, in.comm, in.fields);
}

#else

const char* mpi_neighbor_alltoallw_init_unavailable() {
  return "this MPI has neither MPI_Neighbor_alltoallw_init (MPI-4) nor MPIX_Neighbor_alltoallw_init (Open MPI's "
         "pcollreq extension)";
}

std::unique_ptr<HaloPlan> make_mpi_neighbor_alltoallw_init(const PlanInputs&) {
  throw std::invalid_argument(
      fmt::format("halo backend mpi_neighbor_alltoallw_init is unavailable: {}", mpi_neighbor_alltoallw_init_unavailable()));
}

#endif

std::optional<HaloStats> predict_mpi_neighbor_alltoallw_init(const PlanInputs& in) {
  return for_fields(direct_stats(in.pattern, 1), in.fields);
}

}  // namespace cartex::halo
