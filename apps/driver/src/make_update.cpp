#include "cartex/kernels/linear_update.hpp"
#include "cartex/kernels/update_registry.hpp"
#include "step_update.hpp"

namespace cartex::app {

std::unique_ptr<UpdateOperator> make_update(const Setup& s) {
  const Config& c = s.cfg;
  if (const UpdateFactory* make = find_update(c.stencil.name)) return (*make)(c, s.pattern.layout);
  if (c.equation == Equation::kHeat) return std::make_unique<LinearUpdate>(c.stencil, s.pattern.layout, Scheme::kEuler, c.dt * c.alpha);
  return std::make_unique<LinearUpdate>(c.stencil, s.pattern.layout, Scheme::kLeapfrog, c.dt * c.dt * c.speed * c.speed);
}

}  // namespace cartex::app
