#include <Kokkos_Core.hpp>

#include "cartex/core/phase_profile.hpp"
#include "step_update.hpp"

namespace cartex::app {

void start_levels(const Setup& s, AutoStepper& stepper, core::State& u, core::State& previous) {
  if (!s.equation->make_start) return;
  const auto start = s.equation->make_start(s.cfg, s.pattern.layout);
  stepper.exchange(u);
  // The first level's update is an update phase like a step's (a cartex::update region outside any
  // step; the phase table, reset when the loop starts, does not count it), ended by its fence.
  core::PhaseScope phase(core::Phase::kUpdate);
  start->apply(u, previous);
  Kokkos::fence();
}

}  // namespace cartex::app
