#include "cartex/kernels/linear_update.hpp"
#include "step_update.hpp"

namespace cartex::app {

void start_leapfrog(const Setup& s, AutoStepper& stepper, core::Field& u, core::Field& previous) {
  const core::Config& c = s.cfg;
  stepper.exchange(u);
  kernels::LinearUpdate(c.stencil, s.pattern.layout, kernels::Scheme::kEuler, 0.5 * c.dt * c.dt * c.speed * c.speed)
      .apply(u, previous);
}

}  // namespace cartex::app
