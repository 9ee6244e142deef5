#include "cartex/kernels/update_registry.hpp"
#include "step_update.hpp"

namespace cartex::app {

std::unique_ptr<kernels::UpdateOperator> make_update(const Setup& s) {
  const core::Config& c = s.cfg;
  if (const kernels::UpdateFactory* make = kernels::find_update(c.stencil.name)) return (*make)(c, s.pattern.layout);
  return s.equation->make_update(c, s.pattern.layout, s.coefficients);
}

}  // namespace cartex::app
