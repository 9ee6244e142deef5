// Backend "p2p": the blocks coalesced per partner rank (staging/partner_messages.hpp), packed by a
// Kokkos kernel into one contiguous buffer, one MPI_Irecv/MPI_Isend per partner, unpacked by a Kokkos
// kernel (staging/packed_messages.hpp); the blocks a rank sends itself are copied field to field
// inside start (staging/self_copy.hpp). N fields together: each message carries the blocks of every
// field (staging/pack_list.hpp's layout), the self copy copies every field. On a slab decomposition
// the messages across the split dimension go field to field as whole planes (staging/whole_planes.hpp),
// after the self copies, whose ghost cells they carry (and the periodic ghosts a caller filled:
// expect_filled_ghosts); the planes are read from the field until finish, so a caller that writes
// the block while the exchange is in flight asks for the copy (copy_block_at_start): the planes it
// sends are then copied into one buffer at start.
#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include "schedule_stats.hpp"
#include "staging/packed_messages.hpp"
#include "staging/partner_messages.hpp"
#include "staging/self_copy.hpp"

namespace cartex::halo {

namespace {

// The self copy's pairs: the self blocks, and with whole planes the ghosts they carry.
std::pair<CellList, CellList> self_copy(const PartnerMessages& partners, const WholePlanes& planes) {
  return planes.applies ? planes.with_carried(partners.self_sends(), partners.self_recvs())
                        : std::pair<CellList, CellList>{partners.self_sends(), partners.self_recvs()};
}

// The p2p plan. With whole planes, the self copies run first (the planes carry the ghost cells they
// fill); asked to copy the block at start, it copies the planes it sends into one buffer first.
class P2PPlan final : public HaloPlan {
 public:
  P2PPlan(const PlanInputs& in, const WholePlanes& planes)
      : pattern_(exchange_part(in.pattern)),
        fields_(in.fields),
        planes_(planes.applies),
        stats_(p2p_stats(pattern_, planes)),
        partners_(planes.rest(pattern_)),
        messages_(partners_.sends(), partners_.recvs(), in.comm, staging_of(in.memory()), in.fields, planes),
        self_(self_copy(partners_, planes), pattern_.layout, fillable_dims_of(in)) {}
  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "p2p");
    if (planes_) copy_self(f);
    messages_.start(f);
    if (!planes_) copy_self(f);  // behind the posted messages
  }
  bool self_complete_at_start() const override { return true; }
  bool block_copied_at_start() const override { return !planes_ || messages_.copies_plane_sends(); }
  void copy_block_at_start(bool copy) override { messages_.copy_plane_sends(copy); }
  int fillable_ghost_dims() const override { return self_.fillable_dims(); }
  void expect_filled_ghosts(int dims) override { self_.expect_filled(dims); }
  void progress() override { messages_.progress(); }
  bool done() const override { return messages_.done(); }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "p2p");
    messages_.finish();
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return for_fields(stats_, fields_); }
  std::string backend() const override { return "p2p"; }

 private:
  void copy_self(const FieldSet& f) {
    core::PhaseScope copy(core::Phase::kHaloUnpack);
    self_.run(f);
  }

  HaloPattern pattern_;
  int fields_;
  bool planes_;  // whole planes (the same on every rank)
  HaloStats stats_;
  PartnerMessages partners_;  // the messages point into its cell lists
  PackedMessages messages_;
  SelfCopy self_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_p2p(const PlanInputs& in) {
  return std::make_unique<P2PPlan>(in, whole_planes(in));
}

std::optional<HaloStats> predict_p2p(const PlanInputs& in) { return for_fields(p2p_stats(in.pattern, whole_planes(in)), in.fields); }

}  // namespace cartex::halo
