// The wave equation u_tt = c^2 L(u), leapfrog: its row of the registry (equation.hpp).
#include <algorithm>
#include <cmath>

#include "cartex/core/stability.hpp"
#include "cartex/kernels/linear_update.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex::physics {

namespace {

double speed_of(const core::PhysicsValues& v) { return v.at("speed").numbers.front(); }

// Leapfrog's limit from the stencil's Fourier symbol (core/stability.hpp): for a Laplacian exactly
// 2 / (c * sqrt(rho)), |1 + dt^2*c^2*lambda/2| <= 1 for every eigenvalue lambda in [-rho, 0].
core::TimeStepLimit dt_max(const core::Stencil& stencil, const core::PhysicsValues& v) {
  return core::time_step_limit(stencil, core::Integrator::kLeapfrog, speed_of(v) * speed_of(v));
}

// A cos(n w dt), cos(w dt) = 1 + dt^2*c^2*lambda/2 (|.| <= 1 below dt_max): the start u^(-1) =
// u^0 + dt^2*c^2/2 L(u^0) is cos(w dt) u^0 for the mode, and u^(n+1) = 2 cos(w dt) u^n - u^(n-1) is
// then the Chebyshev recursion.
double sine_amplitude(const core::Config& cfg, double lambda, double n, double a) {
  const double c = speed_of(cfg.physics);
  const double cos_wdt = 1.0 + 0.5 * cfg.dt * cfg.dt * c * c * lambda;
  return a * std::cos(n * std::acos(std::clamp(cos_wdt, -1.0, 1.0)));
}

std::unique_ptr<kernels::UpdateOperator> make_update(const core::Config& cfg, const core::FieldLayout& layout, const CoefficientFields&) {
  const double c = speed_of(cfg.physics);
  return std::make_unique<kernels::LinearUpdate>(cfg.stencil, layout, core::Integrator::kLeapfrog, cfg.dt * cfg.dt * c * c);
}

// The level before the first, u^(-1) = u^0 + dt^2*c^2/2 L(u^0) (zero initial velocity, second order;
// exact for the sine mode).
std::unique_ptr<kernels::UpdateOperator> make_start(const core::Config& cfg, const core::FieldLayout& layout) {
  const double c = speed_of(cfg.physics);
  return std::make_unique<kernels::LinearUpdate>(cfg.stencil, layout, core::Integrator::kExplicitEuler, 0.5 * cfg.dt * cfg.dt * c * c);
}

}  // namespace

const Equation& wave_equation() {
  static const Equation row = [] {
    Equation e;
    e.name = "wave";
    e.app = "wave3d";
    e.title = "wave equation (leapfrog)";
    e.pde = "u_tt = c^2 L(u)";
    e.keys = {{"speed", core::PhysicsKey::Kind::kPositiveNumber, "positive number", "required", {},
               "wave speed c of `u_tt = c²·L(u)`", "a positive number", "wave speed", 0, {}}};
    e.integrator = core::Integrator::kLeapfrog;
    e.dt_max = dt_max;
    e.limit_text = "dt <= 2/(speed*sqrt(rho))";
    e.sine_amplitude = sine_amplitude;
    e.make_update = make_update;
    e.make_start = make_start;
    return e;
  }();
  return row;
}

}  // namespace cartex::physics
