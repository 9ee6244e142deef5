#pragma once
// Backend "cart_forwarding": runs the forwarding schedule (forwarding.hpp) phase by phase with
// Kokkos-packed point-to-point messages; a phase packs what earlier phases unpacked.
#include <memory>

#include "cartex/halo/forwarding.hpp"
#include "cartex/halo/halo_plan.hpp"
#include "p2p_plan.hpp"

namespace cartex::detail {

// The cart_forwarding plan.
class ForwardingPlan final : public HaloPlan {
 public:
  ForwardingPlan(const HaloGeometry& geo, const HaloPattern& pattern, MPI_Comm comm);
  void start(Field& f) override;
  void finish(Field& f) override;
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "cart_forwarding"; }

 private:
  std::vector<ForwardingPhase> schedule_;
  std::vector<std::unique_ptr<PackedMessages>> phases_;
  HaloStats stats_;
};

}  // namespace cartex::detail
