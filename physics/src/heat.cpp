// The heat equation u_t = alpha L(u), explicit Euler: its row of the registry (equation.hpp).
#include <cmath>

#include "cartex/core/stability.hpp"
#include "cartex/kernels/linear_update.hpp"
#include "cartex/kernels/flux_diffusion.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex::physics {

namespace {

double alpha_of(const core::PhysicsValues& v) { return v.at("alpha").numbers.front(); }

// Euler's limit from the stencil's Fourier symbol (core/stability.hpp): for a Laplacian exactly
// 2 / (alpha * rho), |1 + dt*alpha*lambda| <= 1 for every eigenvalue lambda in [-rho, 0].
core::TimeStepLimit dt_max(const core::Stencil& stencil, const core::PhysicsValues& v) {
  return core::time_step_limit(stencil, core::Integrator::kExplicitEuler, alpha_of(v));
}

// A g^n, g = 1 + dt*alpha*lambda: the mode's amplification per Euler step.
double sine_amplitude(const core::Config& cfg, double lambda, double n, double a) {
  return a * std::pow(1.0 + cfg.dt * alpha_of(cfg.physics) * lambda, n);
}

// A field alpha: u_t = div(alpha grad u) in flux form (kernels/flux_diffusion.hpp); else alpha L(u).
std::unique_ptr<kernels::UpdateOperator> make_update(const core::Config& cfg, const core::FieldLayout& layout,
                                                     const CoefficientFields& coefficients) {
  if (const auto alpha = coefficients.find("alpha"); alpha != coefficients.end())
    return std::make_unique<kernels::FluxDiffusionUpdate>(*alpha->second, layout, cfg.grid, cfg.dt);
  return std::make_unique<kernels::LinearUpdate>(cfg.stencil, layout, core::Integrator::kExplicitEuler, cfg.dt * alpha_of(cfg.physics));
}

}  // namespace

const Equation& heat_equation() {
  static const Equation row = [] {
    Equation e;
    e.name = "heat";
    e.app = "heat3d";
    e.title = "explicit heat equation";
    e.pde = "u_t = alpha L(u)";
    e.keys = {{"alpha", core::PhysicsKey::Kind::kCoefficient, "positive number or mapping", "required", {},
               "diffusivity α of `u_t = α·L(u)`; a mapping with one of `layers`, `gaussian`, `hdf5` makes α a field and heat3d "
               "solves `u_t = div(α grad u)` in flux form on the second-order star ([Field alpha](#field-alpha))",
               "a positive number", "diffusivity", 0, {}}};
    e.dt_max = dt_max;
    e.limit_text = "dt <= 2/(alpha*rho)";
    e.sine_amplitude = sine_amplitude;
    e.make_update = make_update;
    return e;
  }();
  return row;
}

}  // namespace cartex::physics
