// Backend "p2p_persistent": p2p's messages (the blocks coalesced per partner rank,
// staging/partner_messages.hpp, on staged buffers) as persistent requests built once (MPI_Recv_init / MPI_Send_init on a duplicate of the
// caller's communicator); each exchange is MPI_Startall of the receives, Kokkos pack, MPI_Startall of
// the sends, then MPI_Testall (progress) or MPI_Waitall (finish) and Kokkos unpack; the blocks a rank
// sends itself are copied field to field inside start (staging/self_copy.hpp; without the ghosts
// the caller filled: expect_filled_ghosts). N fields together: the
// requests are built on buffers N times as long, each message carrying the blocks of every field
// (staging/pack_list.hpp's layout); the self copy copies every field.
#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include "communicators.hpp"
#include "mpi_check.hpp"
#include "schedule_stats.hpp"
#include "staging/partner_messages.hpp"
#include "staging/self_copy.hpp"
#include "staging/single_phase.hpp"
#include "staging/staged_buffers.hpp"

namespace cartex::halo {

namespace {

// The p2p_persistent plan.
class P2PPersistentPlan final : public HaloPlan {
 public:
  P2PPersistentPlan(const HaloPattern& pattern, MPI_Comm comm, Staging staging, int fields, int fillable_dims)
      : pattern_(exchange_part(pattern)),
        fields_(fields),
        partners_(pattern_),
        sends_(partners_.sends()),
        recvs_(partners_.recvs()),
        comm_(duplicate(comm)),
        buffers_(cell_lists(sends_), cell_lists(recvs_), staging, {}, fields),
        requests_(recvs_.size() + sends_.size(), MPI_REQUEST_NULL),
        self_(partners_.self_sends(), partners_.self_recvs(), pattern_.layout, fillable_dims) {
    for (size_t m = 0; m < recvs_.size(); ++m)
      check_mpi(MPI_Recv_init(buffers_.recv_data() + buffers_.recvs().offset(m), static_cast<int>(buffers_.recvs().count(m)),
                              MPI_DOUBLE, recvs_[m].rank, recvs_[m].tag, comm_.get(), &requests_[m]),
                "MPI_Recv_init");
    for (size_t m = 0; m < sends_.size(); ++m)
      check_mpi(MPI_Send_init(buffers_.send_data() + buffers_.sends().offset(m), static_cast<int>(buffers_.sends().count(m)),
                              MPI_DOUBLE, sends_[m].rank, sends_[m].tag, comm_.get(), &requests_[recvs_.size() + m]),
                "MPI_Send_init");
  }
  ~P2PPersistentPlan() override {
    // A destructor does not throw: failures are reported.
    if (phase_.active())
      check_mpi_nothrow(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (auto& r : requests_)
      if (r != MPI_REQUEST_NULL) check_mpi_nothrow(MPI_Request_free(&r), "MPI_Request_free");
  }
  P2PPersistentPlan(const P2PPersistentPlan&) = delete;
  P2PPersistentPlan& operator=(const P2PPersistentPlan&) = delete;

  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "p2p_persistent");
    phase_.start(f);
    {
      core::PhaseScope post_receives(core::Phase::kHaloPost);
      // Open MPI refuses a null request array even for a count of 0, hence the checks.
      if (!recvs_.empty()) check_mpi(MPI_Startall(static_cast<int>(recvs_.size()), requests_.data()), "MPI_Startall");
    }
    buffers_.pack(f);
    core::PhaseScope post_sends(core::Phase::kHaloPost);
    if (!sends_.empty())
      check_mpi(MPI_Startall(static_cast<int>(sends_.size()), requests_.data() + recvs_.size()), "MPI_Startall");
    core::PhaseScope copy(core::Phase::kHaloUnpack);  // the self blocks: behind the posted messages
    self_.run(f);
  }
  bool self_complete_at_start() const override { return true; }
  bool block_copied_at_start() const override { return true; }
  int fillable_ghost_dims() const override { return self_.fillable_dims(); }
  void expect_filled_ghosts(int dims) override { self_.expect_filled(dims); }
  void progress() override { phase_.progress(requests_, buffers_); }
  bool done() const override { return phase_.done(); }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "p2p_persistent");
    phase_.finish(requests_, buffers_);
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return for_fields(partner_stats(pattern_, 1), fields_); }
  std::string backend() const override { return "p2p_persistent"; }

 private:
  HaloPattern pattern_;
  int fields_;
  PartnerMessages partners_;  // the messages point into its cell lists
  const std::vector<Message>& sends_;
  const std::vector<Message>& recvs_;
  OwnedComm comm_;
  StagedBuffers buffers_;
  std::vector<MPI_Request> requests_;  // receives, then sends; persistent, freed with the plan
  SinglePhase phase_;
  SelfCopy self_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_p2p_persistent(const PlanInputs& in) {
  return std::make_unique<P2PPersistentPlan>(in.pattern, in.comm, staging_of(in.memory()), in.fields, fillable_dims_of(in));
}

std::optional<HaloStats> predict_p2p_persistent(const PlanInputs& in) {
  return for_fields(partner_stats(in.pattern, 1), in.fields);
}

}  // namespace cartex::halo
