// Backend "cart_direct": CX_Cart_alltoallw over the field's memory with comm/cart's direct schedule
// (ICPP'19 Listing 4), zero-copy (cart_zero_copy.hpp).
#include "cart_zero_copy.hpp"
#include "cartex/halo/backends.hpp"
#include "schedule_stats.hpp"

namespace cartex::halo {

std::unique_ptr<HaloPlan> make_cart_direct(const PlanInputs& in) {
  return std::make_unique<CartZeroCopyPlan>(in.need_geometry("cart_direct"), in.pattern, in.comm, "cart_direct", false,
                                            in.fields);
}

// One round per offset.
std::optional<HaloStats> predict_cart_direct(const PlanInputs& in) {
  return for_fields(direct_stats(in.pattern, static_cast<int>(in.pattern.blocks.size())), in.fields);
}

}  // namespace cartex::halo
