// Backend "graph_combining": the halo neighborhood as a general MPI distributed graph (sources and
// targets without MPI_PROC_NULL, so the neighborhoods of boundary ranks differ) exchanged with the
// message-combining neighbor alltoallv of comm/graph (HiPC'17: friends share common out-neighbors,
// Algorithm 1 pattern, Algorithm 3 schedule) on the staged buffers (staging/staged_buffers.hpp). N
// fields together: every block's slot holds the block of every field (staging/pack_list.hpp), so the
// graph, its friends and its messages are one field's, N times as long.
#include <cartex/graph/collectives.hpp>
#include <fmt/format.h>

#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include "communicators.hpp"
#include "staging/staged_buffers.hpp"
#include "start_finish.hpp"

namespace cartex::halo {

namespace {

// Friendship threshold: pairs must share this many out-neighbors (HiPC'17's recommended range).
constexpr int kTheta = 4;

// The graph_combining plan.
class GraphCombiningPlan final : public HaloPlan {
 public:
  GraphCombiningPlan(const HaloPattern& p, MPI_Comm comm, Staging staging, int fields)
      : pattern_(exchange_part(p)),
        fields_(fields),
        buffers_(cell_lists(pattern_.sends()), cell_lists(pattern_.recvs()), staging, {}, fields),
        graph_(block_graph(p, comm)) {
    const auto sc = buffers_.counts(buffers_.sends()), sd = buffers_.offsets(buffers_.sends());
    const auto rc = buffers_.counts(buffers_.recvs()), rd = buffers_.offsets(buffers_.recvs());
    auto pattern = graph::Pattern::build(graph_.get(), kTheta);
    plan_ = std::make_unique<graph::Plan>(graph::neighbor_alltoallv_init(buffers_.send_data(), sc.data(), sd.data(),
                                                                         MPI_DOUBLE, buffers_.recv_data(), rc.data(),
                                                                         rd.data(), MPI_DOUBLE, pattern));
    // comm/graph turns self loops (a periodic dimension of one process) into local copies that are no
    // MPI messages; the halo stats count every block a rank sends itself as a message, as the other
    // backends do (docs/backends.md), so they are added here.
    long self_messages = 0, self_cells = 0;
    for (const auto& s : pattern_.sends())
      if (s.rank == pattern_.rank && !s.cells->empty()) {
        ++self_messages;
        self_cells += static_cast<long>(s.cells->size());
      }
    stats_.messages = plan_->messages() + self_messages;
    stats_.bytes = static_cast<long>(plan_->bytes()) + fields * self_cells * static_cast<long>(sizeof(double));
    stats_.rounds = pattern->iterations() + 1;  // combining iterations, then the direct messages
    note_ = fmt::format("graph_combining: theta {}, {} combining iteration(s), {} message(s) instead of {} on this rank",
                        pattern->theta(), pattern->iterations(), pattern->stages(), pattern->naive_stages());
  }
  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "graph_combining");
    state_.start();
    buffers_.pack(f);
    core::PhaseScope wait(core::Phase::kHaloWait);  // the plan runs the whole exchange in one blocking call
    plan_->execute();
  }
  // The exchange ran inside start: nothing is ever in flight.
  bool done() const override { return true; }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "graph_combining");
    state_.finish();
    buffers_.unpack(f);
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "graph_combining"; }
  std::string note() const override { return note_; }

 private:
  HaloPattern pattern_;
  int fields_;
  StagedBuffers buffers_;
  OwnedComm graph_;
  std::unique_ptr<graph::Plan> plan_;  // declared after graph_: destroyed before it
  HaloStats stats_;
  std::string note_;
  StartFinish state_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_graph_combining(const PlanInputs& in) {
  return std::make_unique<GraphCombiningPlan>(in.pattern, in.comm, staging_of(in.memory()), in.fields);
}

}  // namespace cartex::halo
