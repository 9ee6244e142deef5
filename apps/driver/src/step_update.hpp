#pragma once
// The update of one step (make_update.cpp) and the start of a two-level integrator (start_levels.cpp).
#include <memory>

#include "cartex/core/field.hpp"
#include "cartex/kernels/update_operator.hpp"
#include "driver.hpp"
#include "auto_stepper.hpp"

namespace cartex::app {

// The update of a step: a registered point update of the stencil's name; else the equation's own
// (physics::Equation::make_update, given the run's field coefficients).
std::unique_ptr<kernels::UpdateOperator> make_update(const Setup& s);

// An equation with a start (physics::Equation::make_start; wave: u^(-1) = u^0 + dt^2*c^2/2 * L(u^0))
// fills `previous` with the level before the first, after exchanging u's halo (collective); the
// others do nothing.
void start_levels(const Setup& s, AutoStepper& stepper, core::State& u, core::State& previous);

}  // namespace cartex::app
