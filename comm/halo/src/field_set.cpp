// FieldSet::require (plan.hpp): the check every plan runs on the set it is handed.
#include <fmt/format.h>

#include <algorithm>

#include "cartex/core/error.hpp"
#include "cartex/halo/plan.hpp"

namespace cartex::halo {

void FieldSet::require(std::size_t count, const core::FieldLayout& layout, const std::string& plan) const {
  core::require(fields_.size() == count, fmt::format("halo plan {} exchanges {} field(s) together, given a set of {}", plan,
                                                     count, fields_.size()));
  for (std::size_t q = 0; q < fields_.size(); ++q) {
    const core::Field* f = fields_[q];
    core::require(f != nullptr, fmt::format("halo plan {}: field {} of the set is null", plan, q));
    core::require(f->layout.box == layout.box && f->layout.halo == layout.halo,
                  fmt::format("halo plan {}: field {} of the set has another layout than the plan's", plan, q));
    for (int d = 0; d < 3; ++d)
      core::require(static_cast<long>(f->view.extent(static_cast<unsigned>(2 - d))) == layout.extent(d),
                    fmt::format("halo plan {}: field {} of the set has a view of other extents than its layout", plan, q));
    // Twice the same storage (the same field, or two fields sharing a view) would be written twice.
    const bool repeated = std::any_of(fields_.begin(), fields_.begin() + static_cast<long>(q),
                                      [&](const core::Field* g) { return g->view.data() == f->view.data(); });
    core::require(!repeated, fmt::format("halo plan {}: field {} of the set repeats an earlier field's storage", plan, q));
  }
}

}  // namespace cartex::halo
