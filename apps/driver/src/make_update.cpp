#include "cartex/kernels/flux_diffusion.hpp"
#include "cartex/kernels/update_registry.hpp"
#include "step_update.hpp"

namespace cartex::app {

std::unique_ptr<kernels::UpdateOperator> make_update(const Setup& s) {
  const core::Config& c = s.cfg;
  if (s.alpha) return std::make_unique<kernels::FluxDiffusionUpdate>(*s.alpha, s.pattern.layout, c.grid, c.dt);
  if (const kernels::UpdateFactory* make = kernels::find_update(c.stencil.name)) return (*make)(c, s.pattern.layout);
  return s.equation->make_update(c, s.pattern.layout);
}

}  // namespace cartex::app
