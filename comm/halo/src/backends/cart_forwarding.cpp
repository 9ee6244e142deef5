// Backend "cart_forwarding": runs the forwarding schedule (forwarding.hpp) phase by phase with
// Kokkos-packed point-to-point messages (staging/packed_messages.hpp, one communicator per phase);
// a phase packs what earlier phases unpacked. start runs the first phase's posting, finish the rest.
#include "cartex/halo/backends.hpp"
#include "cartex/halo/forwarding.hpp"
#include "schedule_stats.hpp"
#include "staging/packed_messages.hpp"

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
  ForwardingPlan(const HaloGeometry& geo, const HaloPattern& pattern, MPI_Comm comm)
      : schedule_(make_forwarding_schedule(geo, pattern)), stats_(forwarding_stats(schedule_)) {
    for (const auto& ph : schedule_)
      phases_.push_back(std::make_unique<PackedMessages>(messages(ph.sends), messages(ph.recvs), comm));
  }
  void start(core::Field& f) override {
    state_.start();
    if (!phases_.empty()) phases_.front()->start(f);
  }
  void finish(core::Field& f) override {
    state_.finish();
    for (size_t p = 0; p < phases_.size(); ++p) {
      if (p > 0) phases_[p]->start(f);
      phases_[p]->finish(f);
    }
  }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "cart_forwarding"; }

 private:
  std::vector<ForwardingPhase> schedule_;  // the messages point into its cell lists
  HaloStats stats_;
  std::vector<std::unique_ptr<PackedMessages>> phases_;
  StartFinish state_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_cart_forwarding(const PlanInputs& in) {
  return std::make_unique<ForwardingPlan>(in.need_geometry("cart_forwarding"), in.pattern, in.comm);
}

std::optional<HaloStats> predict_cart_forwarding(const PlanInputs& in) {
  return forwarding_stats(make_forwarding_schedule(in.need_geometry("cart_forwarding"), in.pattern));
}

}  // namespace cartex::halo
