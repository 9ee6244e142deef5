// Backend "p2p": the blocks coalesced per partner rank (staging/partner_messages.hpp), packed by a
// Kokkos kernel into one contiguous buffer, one MPI_Irecv/MPI_Isend per partner, unpacked by a Kokkos
// kernel (staging/packed_messages.hpp); the blocks a rank sends itself are copied field to field
// inside start (staging/self_copy.hpp). N fields together: each message carries the blocks of every
// field (staging/pack_list.hpp's layout), the self copy copies every field.
#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include "schedule_stats.hpp"
#include "staging/packed_messages.hpp"
#include "staging/partner_messages.hpp"
#include "staging/self_copy.hpp"

namespace cartex::halo {

namespace {

// The p2p plan.
class P2PPlan final : public HaloPlan {
 public:
  P2PPlan(const HaloPattern& pattern, MPI_Comm comm, Staging staging, int fields)
      : pattern_(exchange_part(pattern)),
        fields_(fields),
        partners_(pattern_),
        messages_(partners_.sends(), partners_.recvs(), comm, staging, fields),
        self_(partners_.self_sends(), partners_.self_recvs(), pattern_.layout) {}
  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "p2p");
    messages_.start(f);
    core::PhaseScope copy(core::Phase::kHaloUnpack);  // the self blocks: behind the posted messages
    self_.run(f);
  }
  bool self_complete_at_start() const override { return true; }
  bool block_copied_at_start() const override { return true; }
  void progress() override { messages_.progress(); }
  bool done() const override { return messages_.done(); }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "p2p");
    messages_.finish();
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return for_fields(partner_stats(pattern_, 1), fields_); }
  std::string backend() const override { return "p2p"; }

 private:
  HaloPattern pattern_;
  int fields_;
  PartnerMessages partners_;  // the messages point into its cell lists
  PackedMessages messages_;
  SelfCopy self_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_p2p(const PlanInputs& in) {
  return std::make_unique<P2PPlan>(in.pattern, in.comm, staging_of(in.memory()), in.fields);
}

std::optional<HaloStats> predict_p2p(const PlanInputs& in) { return for_fields(partner_stats(in.pattern, 1), in.fields); }

}  // namespace cartex::halo
