// Backend "p2p": every non-empty block packed by a Kokkos kernel into one contiguous buffer,
// MPI_Irecv/MPI_Isend per block (tag = block index, so repeated neighbors stay apart), unpacked by a
// Kokkos kernel (staging/packed_messages.hpp).
#include "cartex/halo/backends.hpp"
#include "schedule_stats.hpp"
#include "staging/packed_messages.hpp"

namespace cartex::halo {

namespace {

// The non-empty blocks whose partner exists, as messages tagged with their block index.
std::vector<Message> messages(const std::vector<BlockPart>& parts) {
  std::vector<Message> out;
  for (const auto& p : parts)
    if (!p.cells->empty()) out.push_back({p.rank, p.block, p.cells});
  return out;
}

// The p2p plan.
class P2PPlan final : public HaloPlan {
 public:
  P2PPlan(const HaloPattern& pattern, MPI_Comm comm)
      : pattern_(pattern), messages_(messages(pattern_.sends()), messages(pattern_.recvs()), comm) {}
  void start(core::Field& f) override { messages_.start(f); }
  void finish(core::Field& f) override { messages_.finish(f); }
  HaloStats stats() const override { return direct_stats(pattern_, 1); }
  std::string backend() const override { return "p2p"; }

 private:
  HaloPattern pattern_;  // the messages point into its cell lists
  PackedMessages messages_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_p2p(const PlanInputs& in) { return std::make_unique<P2PPlan>(in.pattern, in.comm); }

std::optional<HaloStats> predict_p2p(const PlanInputs& in) { return direct_stats(in.pattern, 1); }

}  // namespace cartex::halo
