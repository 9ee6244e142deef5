#include "cartex/kernels/flux_diffusion.hpp"
#include "cartex/kernels/linear_update.hpp"
#include "cartex/kernels/update_registry.hpp"
#include "step_update.hpp"

namespace cartex::app {

std::unique_ptr<kernels::UpdateOperator> make_update(const Setup& s) {
  const core::Config& c = s.cfg;
  if (s.alpha) return std::make_unique<kernels::FluxDiffusionUpdate>(*s.alpha, s.pattern.layout, c.grid, c.dt);
  if (const kernels::UpdateFactory* make = kernels::find_update(c.stencil.name)) return (*make)(c, s.pattern.layout);
  if (c.equation == core::Equation::kHeat)
    return std::make_unique<kernels::LinearUpdate>(c.stencil, s.pattern.layout, kernels::Scheme::kEuler, c.dt * c.alpha);
  return std::make_unique<kernels::LinearUpdate>(c.stencil, s.pattern.layout, kernels::Scheme::kLeapfrog,
                                                 c.dt * c.dt * c.speed * c.speed);
}

}  // namespace cartex::app
