// Backend "cart_combining_packed": comm/cart's message-combining schedule (ICPP'19 Algorithm 1) run by
// a CX_Cart_alltoallv plan on the two contiguous staged buffers (staging/staged_buffers.hpp), one
// uniform slot per block index: works with device memory. N fields together: each slot N times as
// long, holding the block of every field (staging/pack_list.hpp), so the schedule is one field's.
#include "cart_comm.hpp"
#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/backends.hpp"
#include "schedule_stats.hpp"
#include "staging/single_phase.hpp"
#include "staging/staged_buffers.hpp"
#include "staging/zero_copy.hpp"

namespace cartex::halo {

namespace {

// Every block's cells, one slot per block index (blocks of missing partners are empty: all padding).
std::vector<const CellList*> all_blocks(const HaloPattern& p, bool send) {
  std::vector<const CellList*> out;
  for (const auto& b : p.blocks) out.push_back(send ? &b.send : &b.recv);
  return out;
}

// The cart_combining_packed plan.
class CartPackedPlan final : public HaloPlan {
 public:
  CartPackedPlan(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm, Staging staging, int fields)
      : pattern_(exchange_part(p)),
        fields_(fields),
        slots_(uniform_block_sizes(p, comm)),
        buffers_(all_blocks(pattern_, true), all_blocks(pattern_, false), staging, slots_, fields),
        cart_(cart_neighborhood(geo, pattern_, comm, cart::Algorithm::combining, cart::Execution::packed)),
        stats_(for_fields(combining_stats(pattern_, &slots_), fields)) {
    const auto sc = buffers_.counts(buffers_.sends()), sd = buffers_.offsets(buffers_.sends());
    const auto rc = buffers_.counts(buffers_.recvs()), rd = buffers_.offsets(buffers_.recvs());
    plan_ = std::make_unique<cart::Plan>(cart_call("CX_Cart_alltoallv_init", [&] {
      return cart_.alltoallv_init(buffers_.send_data(), sc.data(), sd.data(), MPI_DOUBLE, buffers_.recv_data(), rc.data(),
                                  rd.data(), MPI_DOUBLE);
    }));
  }
  void start(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "cart_combining_packed");
    phase_.start(f);
    buffers_.pack(f);
    core::PhaseScope post(core::Phase::kHaloPost);
    cart_call("CX_Cart_plan_start", [&] { plan_->start(); });
  }
  // comm/cart's plan advances its schedule phase by phase (one per dimension) on each test.
  void progress() override {
    phase_.progress([&] { return cart_call("CX_Cart_plan_test", [&] { return plan_->test(); }); }, buffers_);
  }
  bool done() const override { return phase_.done(); }
  void finish(const FieldSet& f) override {
    f.require(static_cast<size_t>(fields_), pattern_.layout, "cart_combining_packed");
    phase_.finish([&] { cart_call("CX_Cart_plan_wait", [&] { plan_->wait(); }); }, buffers_);
  }
  int fields() const override { return fields_; }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "cart_combining_packed"; }

 private:
  HaloPattern pattern_;
  int fields_;
  std::vector<long> slots_;
  StagedBuffers buffers_;
  cart::Neighborhood cart_;
  std::unique_ptr<cart::Plan> plan_;  // declared after cart_: freed before it
  HaloStats stats_;
  SinglePhase phase_;
};

}  // namespace

std::unique_ptr<HaloPlan> make_cart_combining_packed(const PlanInputs& in) {
  return std::make_unique<CartPackedPlan>(in.need_geometry("cart_combining_packed"), in.pattern, in.comm,
                                          staging_of(in.memory()), in.fields);
}

// Without the collective slot sizes: each block counted at its own size on this rank.
std::optional<HaloStats> predict_cart_combining_packed(const PlanInputs& in) {
  return for_fields(combining_stats(in.pattern), in.fields);
}

}  // namespace cartex::halo
