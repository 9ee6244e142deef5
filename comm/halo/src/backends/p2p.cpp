// Backend "p2p": the blocks coalesced per partner rank (staging/partner_messages.hpp), packed by a
// Kokkos kernel into one contiguous buffer, one MPI_Irecv/MPI_Isend per partner, unpacked by a Kokkos
// kernel (staging/packed_messages.hpp); the blocks a rank sends itself are copied field to field
// inside start (staging/self_copy.hpp). N fields together: each message carries the blocks of every
// field (staging/pack_list.hpp's layout), the self copy copies every field. On a slab decomposition
// the messages across the split dimension go field to field as whole planes (staging/whole_planes.hpp),
// after the self copies, whose ghost cells they carry; the planes are read from the field until
// finish, so a caller that writes the block while the exchange is in flight asks for the copy
// (copy_block_at_start) and gets every block packed.
#include "cartex/core/error.hpp"
#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include <optional>

#include "schedule_stats.hpp"
#include "staging/packed_messages.hpp"
#include "staging/partner_messages.hpp"
#include "staging/self_copy.hpp"

namespace cartex::halo {

namespace {

// One way of sending a pattern: its partner messages and their packed exchange, with the whole
// planes if any (their blocks then left out of the packed messages).
struct Route {
  Route(const HaloPattern& p, MPI_Comm comm, Staging staging, int fields, const WholePlanes& planes)
      : partners(planes.rest(p)), messages(partners.sends(), partners.recvs(), comm, staging, fields, planes) {}
  PartnerMessages partners;  // the messages point into its cell lists
  PackedMessages messages;
};

// The p2p plan: whole planes where they apply, until asked to copy the block at start; then every
// block packed (a second route, made on that request and freed when it is withdrawn).
class P2PPlan final : public HaloPlan {
 public:
  P2PPlan(const PlanInputs& in, const WholePlanes& planes)
      : pattern_(exchange_part(in.pattern)),
        fields_(in.fields),
        staging_(staging_of(in.memory())),
        planes_(planes.applies),
        planes_stats_(p2p_stats(pattern_, planes)),
        route_(pattern_, in.comm, staging_, fields_, planes),
        self_(route_.partners.self_sends(), route_.partners.self_recvs(), pattern_.layout) {}
  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "p2p");
    if (sends_planes()) copy_self(f);  // the planes carry the ghost cells it fills
    active().start(f);
    if (!sends_planes()) copy_self(f);  // behind the posted messages
  }
  bool self_complete_at_start() const override { return true; }
  // The whole planes are sent from the field itself.
  bool block_copied_at_start() const override { return !sends_planes(); }
  void copy_block_at_start(bool copy) override {
    if (!planes_ || copy == copied_.has_value()) return;
    core::require(!active().active(), "p2p: copy_block_at_start with an exchange in flight");
    if (copy)
      copied_.emplace(pattern_, route_.messages.comm(), staging_, fields_, WholePlanes{});  // duplicates it
    else
      copied_.reset();
  }
  void progress() override { active().progress(); }
  bool done() const override { return active().done(); }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "p2p");
    active().finish();
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return for_fields(sends_planes() ? planes_stats_ : partner_stats(pattern_, 1), fields_); }
  std::string backend() const override { return "p2p"; }

 private:
  bool sends_planes() const { return planes_ && !copied_; }
  PackedMessages& active() { return copied_ ? copied_->messages : route_.messages; }
  const PackedMessages& active() const { return copied_ ? copied_->messages : route_.messages; }
  void copy_self(const FieldSet& f) const {
    core::PhaseScope copy(core::Phase::kHaloUnpack);
    self_.run(f);
  }

  HaloPattern pattern_;
  int fields_;
  Staging staging_;
  bool planes_;  // whole planes apply (the same on every rank)
  HaloStats planes_stats_;
  Route route_;
  std::optional<Route> copied_;  // every block packed, while asked to copy the block
  SelfCopy self_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_p2p(const PlanInputs& in) {
  return std::make_unique<P2PPlan>(in, whole_planes(in));
}

std::optional<HaloStats> predict_p2p(const PlanInputs& in) { return for_fields(p2p_stats(in.pattern, whole_planes(in)), in.fields); }

}  // namespace cartex::halo
