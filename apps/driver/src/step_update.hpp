#pragma once
// The update of one step (make_update.cpp) and the wave's leapfrog start (start_leapfrog.cpp).
#include <memory>

#include "cartex/core/field.hpp"
#include "cartex/kernels/update_operator.hpp"
#include "driver.hpp"
#include "auto_stepper.hpp"

namespace cartex::app {

// The update of a step: heat with a field alpha, the flux form (kernels/flux_diffusion.hpp); a
// registered point update of the stencil's name; else the linear stencil operator as explicit Euler
// (heat) or leapfrog (wave).
std::unique_ptr<kernels::UpdateOperator> make_update(const Setup& s);

// Wave: fills `previous` with the level before the first, u^(-1) = u^0 + dt^2*c^2/2 * L(u^0) (zero
// initial velocity, second order; exact for the sine mode). Exchanges u's halo first (collective).
void start_leapfrog(const Setup& s, AutoStepper& stepper, core::Field& u, core::Field& previous);

}  // namespace cartex::app
