#include "cart_zero_copy.hpp"

#include <Kokkos_Core.hpp>

#include "cartex/core/phase_profile.hpp"
#include "schedule_stats.hpp"

namespace cartex::halo {

CartZeroCopyPlan::CartZeroCopyPlan(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm, const char* name,
                                   bool combining, int fields)
    : name_(name),
      combining_(combining),
      fields_(fields),
      pattern_(exchange_part(p)),
      slots_(combining ? uniform_block_sizes(p, comm) : std::vector<long>{}),
      cart_(cart_neighborhood(geo, p, comm, combining ? cart::Algorithm::combining : cart::Algorithm::direct,
                              cart::Execution::zero_copy)),
      // The direct Cartesian schedule has one round per offset (ICPP'19 Listing 4).
      stats_(for_fields(combining ? combining_stats(p, &slots_) : direct_stats(p, static_cast<int>(p.blocks.size())),
                        fields)) {}

void CartZeroCopyPlan::start(const FieldSet& f) {
  f.require(static_cast<size_t>(fields_), pattern_.layout, name_);
  state_.start();
  running_ = bind(f).plan.get();
  core::PhaseScope post(core::Phase::kHaloPost);
  cart_call("CX_Cart_plan_start", [&] { running_->start(); });
}

void CartZeroCopyPlan::progress() {
  if (!state_.done() && cart_call("CX_Cart_plan_test", [&] { return running_->test(); })) state_.complete();
}

void CartZeroCopyPlan::finish(const FieldSet& f) {
  f.require(static_cast<size_t>(fields_), pattern_.layout, name_);
  core::PhaseScope wait(core::Phase::kHaloWait);  // entered also when progress completed the exchange
  if (!state_.done()) cart_call("CX_Cart_plan_wait", [&] { running_->wait(); });
  state_.finish();
}

CartZeroCopyPlan::Bound& CartZeroCopyPlan::bind(const FieldSet& f) {
  core::PhaseScope post(core::Phase::kHaloPost);
  Kokkos::fence();  // the fields' last update must be complete before MPI reads them
  field_bases(f, bases_);  // the key, in storage the plan keeps: finding a bound plan allocates nothing
  auto it = plans_.find(bases_);
  if (it == plans_.end()) it = plans_.emplace(bases_, Bound{}).first;
  const std::vector<const double*>& bases = bases_;
  double* base = f[0].view.data();
  Bound& b = it->second;
  if (!b.plan) {
    const BlockPadding padding{slots_, base, &b.scratch};
    b.blocks = std::make_unique<ZeroCopyBlocks>(pattern_, false, combining_ ? &padding : nullptr, bases);
    const ZeroCopyBlocks& z = *b.blocks;
    b.plan = std::make_unique<cart::Plan>(cart_call("CX_Cart_alltoallw_init", [&] {
      return cart_.alltoallw_init(base, z.send_counts.data(), z.send_displs.data(), z.send_types.data(), base,
                                  z.recv_counts.data(), z.recv_displs.data(), z.recv_types.data());
    }));
  }
  return b;
}

}  // namespace cartex::halo
