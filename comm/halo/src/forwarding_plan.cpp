#include "forwarding_plan.hpp"

namespace cartex::detail {

ForwardingPlan::ForwardingPlan(const HaloGeometry& geo, const HaloPattern& pattern, MPI_Comm comm)
    : schedule_(make_forwarding_schedule(geo, pattern)) {
  for (const auto& ph : schedule_) {
    std::vector<PackedMessages::Message> sends, recvs;
    for (const auto& m : ph.sends) sends.push_back({m.rank, m.tag, &m.cells});
    for (const auto& m : ph.recvs) recvs.push_back({m.rank, m.tag, &m.cells});
    phases_.push_back(std::make_unique<PackedMessages>(std::move(sends), std::move(recvs), comm));
  }
  stats_ = predict_halo_stats(backend(), geo, pattern);
}

void ForwardingPlan::start(Field& f) {
  if (!phases_.empty()) phases_.front()->start(f);
}

void ForwardingPlan::finish(Field& f) {
  for (size_t p = 0; p < phases_.size(); ++p) {
    if (p > 0) phases_[p]->start(f);
    phases_[p]->finish(f);
  }
}

}  // namespace cartex::detail
