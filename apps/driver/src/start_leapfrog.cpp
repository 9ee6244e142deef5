#include <Kokkos_Core.hpp>

#include "cartex/core/phase_profile.hpp"
#include "cartex/kernels/linear_update.hpp"
#include "step_update.hpp"

namespace cartex::app {

void start_leapfrog(const Setup& s, AutoStepper& stepper, core::Field& u, core::Field& previous) {
  const core::Config& c = s.cfg;
  stepper.exchange(u);
  // The first level's update is an update phase like a step's (a cartex::update region outside any
  // step; the phase table, reset when the loop starts, does not count it), ended by its fence.
  core::PhaseScope phase(core::Phase::kUpdate);
  kernels::LinearUpdate(c.stencil, s.pattern.layout, kernels::Scheme::kEuler, 0.5 * c.dt * c.dt * c.speed * c.speed)
      .apply(u, previous);
  Kokkos::fence();
}

}  // namespace cartex::app
