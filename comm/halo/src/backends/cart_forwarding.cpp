// Backend "cart_forwarding": runs the forwarding schedule (forwarding.hpp) phase by phase with
// Kokkos-packed point-to-point messages (staging/packed_messages.hpp, one communicator per phase);
// a phase packs what earlier phases unpacked. start posts the first phase; progress (non-blocking)
// and finish (blocking) move through the rest. N fields together: every phase's messages carry the
// cells of every field (staging/pack_list.hpp), so the schedule is one field's.
#include "cartex/halo/backends.hpp"
#include "cartex/halo/forwarding.hpp"
#include "schedule_stats.hpp"
#include "staging/packed_messages.hpp"
#include "start_finish.hpp"

namespace cartex::halo {

namespace {

// The messages of one direction of a phase.
std::vector<Message> messages(const std::vector<ForwardingMessage>& list) {
  std::vector<Message> out;
  for (const auto& m : list) out.push_back({m.rank, m.tag, &m.cells});
  return out;
}

// The cart_forwarding plan.
class ForwardingPlan final : public HaloPlan {
 public:
  ForwardingPlan(const HaloGeometry& geo, const HaloPattern& pattern, MPI_Comm comm, Staging staging, int fields)
      : layout_(pattern.layout),
        fields_(fields),
        schedule_(make_forwarding_schedule(geo, pattern)),
        stats_(for_fields(forwarding_stats(schedule_), fields)) {
    for (const auto& ph : schedule_)
      phases_.push_back(std::make_unique<PackedMessages>(messages(ph.sends), messages(ph.recvs), comm, staging, fields));
  }
  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), layout_, "cart_forwarding");
    state_.start();
    field_ = f;
    current_ = 0;
    if (phases_.empty())
      state_.complete();
    else
      phases_.front()->start(f);
  }
  void progress() override { advance(false); }
  bool done() const override { return state_.done(); }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), layout_, "cart_forwarding");
    advance(true);
    state_.finish();
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "cart_forwarding"; }

 private:
  core::FieldLayout layout_;
  int fields_;
  std::vector<ForwardingPhase> schedule_;  // the messages point into its cell lists
  HaloStats stats_;
  // One exchange moves through the phases (n of them) in order:
  //
  //   state \ event  start(f)                progress()                             finish
  //   idle            post phase 0 (none:     nothing                                error
  //                   complete) -> phase 0
  //   phase p         error                   p complete: unpack p, post p + 1       advance blocking
  //                                           (packs what p unpacked) -> phase p + 1; through n - 1,
  //                                           after n - 1 -> complete; else nothing  -> idle
  //   complete        error                   nothing                                -> idle
  //
  // state_ holds idle / in flight (= phase current_) / complete.
  void advance(bool block) {
    while (!state_.done()) {
      PackedMessages& phase = *phases_[current_];
      if (!block) {
        phase.progress();
        if (!phase.done()) return;
      }
      phase.finish();  // unpacks (waiting first when blocking)
      if (++current_ == phases_.size())
        state_.complete();
      else
        phases_[current_]->start(field_);
    }
  }

  std::vector<std::unique_ptr<PackedMessages>> phases_;
  StartFinish state_;
  size_t current_ = 0;  // the phase in flight
  FieldSet field_{};  // the fields of the exchange in flight
};

}  // namespace

std::unique_ptr<HaloPlan> make_cart_forwarding(const PlanInputs& in) {
  return std::make_unique<ForwardingPlan>(in.need_geometry("cart_forwarding"), in.pattern, in.comm, staging_of(in.memory()),
                                          in.fields);
}

std::optional<HaloStats> predict_cart_forwarding(const PlanInputs& in) {
  return for_fields(forwarding_stats(make_forwarding_schedule(in.need_geometry("cart_forwarding"), in.pattern)), in.fields);
}

}  // namespace cartex::halo
