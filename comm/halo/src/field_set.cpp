// FieldSet::require (plan.hpp): the check every plan runs on the set it is handed, at every start and
// finish. It formats a message only when a check fails: the checks themselves are a few comparisons
// per field, the messages several fmt::format calls each (measurable on a latency-bound exchange).
#include <fmt/format.h>

#include "cartex/core/error.hpp"
#include "cartex/halo/plan.hpp"

namespace cartex::halo {

namespace {

// What is wrong with field q of a set (its pointer f), or nullptr.
const char* field_problem(const core::Field* f, const core::FieldLayout& layout) {
  if (f == nullptr) return "is null";
  if (!(f->layout.box == layout.box && f->layout.halo == layout.halo)) return "has another layout than the plan's";
  for (int d = 0; d < 3; ++d)
    if (static_cast<long>(f->view.extent(static_cast<unsigned>(2 - d))) != layout.extent(d))
      return "has a view of other extents than its layout";
  return nullptr;
}

}  // namespace

void FieldSet::require(std::size_t count, const core::FieldLayout& layout, const char* plan) const {
  if (size_ != count)
    throw core::Error(fmt::format("halo plan {} exchanges {} field(s) together, given a set of {}", plan, count, size_));
  const core::Field* const* fields = data();
  for (std::size_t q = 0; q < size_; ++q) {
    const core::Field* f = fields[q];
    if (const char* problem = field_problem(f, layout))
      throw core::Error(fmt::format("halo plan {}: field {} of the set {}", plan, q, problem));
    // Twice the same storage (the same field, or two fields sharing a view) would be written twice.
    for (std::size_t r = 0; r < q; ++r)
      if (fields[r]->view.data() == f->view.data())
        throw core::Error(fmt::format("halo plan {}: field {} of the set repeats an earlier field's storage", plan, q));
  }
}

}  // namespace cartex::halo
