// The heat equation u_t = alpha L(u), explicit Euler: its row of the registry (equation.hpp).
#include <cmath>

#include "cartex/core/stability.hpp"
#include "cartex/kernels/linear_update.hpp"
#include "equation_rows.hpp"

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

std::unique_ptr<kernels::UpdateOperator> make_update(const core::Config& cfg, const core::FieldLayout& layout) {
  return std::make_unique<kernels::LinearUpdate>(cfg.stencil, layout, kernels::Scheme::kEuler, cfg.dt * alpha_of(cfg.physics));
}

}  // namespace

const Equation& heat_equation() {
  static const Equation row{
      "heat",
      "heat3d",
      "explicit heat equation",
      "u_t = alpha L(u)",
      {{"alpha", core::PhysicsKey::Kind::kCoefficient, "positive number or mapping", "required", {},
        "diffusivity α of `u_t = α·L(u)`; a mapping with one of `layers`, `gaussian`, `hdf5` makes α a field and heat3d "
        "solves `u_t = div(α grad u)` in flux form on the second-order star ([Field alpha](#field-alpha))",
        "a positive number", "diffusivity", 0, {}}},
      Integrator::kEuler,
      dt_max,
      "dt <= 2/(alpha*rho)",
      {"u"},
      {"sine", "gaussian"},
      sine_amplitude,
      make_update,
      nullptr,
      nullptr,
      nullptr,
  };
  return row;
}

}  // namespace cartex::physics
