// Backend "cart_combining": CX_Cart_alltoallw over the field's memory with comm/cart's message-
// combining schedule (ICPP'19 Algorithm 1), zero-copy, blocks padded to uniform slots
// (cart_zero_copy.hpp).
#include "cart_zero_copy.hpp"
#include "cartex/halo/backends.hpp"
#include "schedule_stats.hpp"

namespace cartex::halo {

std::unique_ptr<HaloPlan> make_cart_combining(const PlanInputs& in) {
  return std::make_unique<CartZeroCopyPlan>(in.need_geometry("cart_combining"), in.pattern, in.comm, "cart_combining", true,
                                            in.fields);
}

// Without the collective slot sizes: each block counted at its own size on this rank.
std::optional<HaloStats> predict_cart_combining(const PlanInputs& in) {
  return for_fields(combining_stats(in.pattern), in.fields);
}

}  // namespace cartex::halo
