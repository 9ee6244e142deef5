#pragma once
// The equations cartex solves, one descriptor (row) each, in one registry (src/equations.cpp) that the
// driver, the input loader (through loader_input), checkpoints, the dry run and the tests all read:
//
//   name  app     keys   integrator  dt_max (rho: spectral radius of L)  state (checkpoint names)  initial         exact (sine mode)
//   ----  ------  -----  ----------  ----------------------------------  ------------------------  --------------  ---------------
//   heat  heat3d  alpha  Euler       2 / (alpha * rho)                   u                         sine, gaussian  A g^n
//   wave  wave3d  speed  leapfrog    2 / (speed * sqrt(rho))             u, u_previous             sine, gaussian  A cos(n w dt)
//   advection-diffusion  advect3d  alpha, velocity, advection  Euler  from the complex symbol of
//         alpha Lap - v.D (operator_stencil)  u  sine, gaussian  2^dim plane waves times G^n (exact_modes, periodic)
//
//   heat: u_t = alpha L(u), g = 1 + dt alpha lambda;  wave: u_tt = c^2 L(u), cos(w dt) = 1 + dt^2 c^2 lambda / 2
//   advection-diffusion: u_t + v . grad u = alpha Lap(u), G = 1 + dt lambda(theta), lambda complex
//   (lambda: L's eigenvalue at the mode, the stencil's symbol there)
//
// Adding an equation: one source file in src/ defining its row, one row in src/equations.cpp, one
// line in CMakeLists.txt, its app's main, an input and docs (docs/equations.md, docs/input.md).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/equation_input.hpp"
#include "cartex/core/field.hpp"
#include "cartex/kernels/mode_sum.hpp"
#include "cartex/kernels/update_operator.hpp"

namespace cartex::physics {

// How a step advances the state: explicit Euler (one level, u^(n+1) = u^n + dt F(u^n)) or leapfrog
// (two levels, u^(n+1) = 2 u^n - u^(n-1) + dt^2 F(u^n)).
enum class Integrator { kEuler, kLeapfrog };

// One row of the registry.
struct Equation {
  const char* name;   // as inputs, checkpoints and messages name it: "heat"
  const char* app;    // its program: "heat3d"
  const char* title;  // the program's --help line: "explicit heat equation"
  const char* pde;    // "u_t = alpha L(u)" (L: the stencil's operator)
  std::vector<core::PhysicsKey> keys;  // its physics.* keys (physics.dt and physics.cfl are everyone's)
  Integrator integrator;
  // The stability limit of the integrator with the stencil (resolved for the grid) and physics values,
  // and its formula for messages.
  core::TimeStepLimit (*dt_max)(const core::Stencil& stencil, const core::PhysicsValues& values);
  const char* limit_text;
  // The datasets of its state in a checkpoint, the solution u first (wave: u_previous, level n - 1);
  // names kept forever so that old checkpoints load.
  std::vector<std::string> state;
  std::vector<std::string> initial_conditions;  // the init.type values it accepts
  // Exact solution of the sine mode (an eigenvector of L with eigenvalue lambda): its amplitude after
  // n steps, for amplitude `a` at step 0; nullptr when the equation has none.
  double (*sine_amplitude)(const core::Config& cfg, double lambda, double n, double a);
  // The update of one step (registered point updates of the stencil's name come first, in the driver).
  std::unique_ptr<kernels::UpdateOperator> (*make_update)(const core::Config& cfg, const core::FieldLayout& layout);
  // The start of a multi-level integrator: the operator that computes state[1] from u at step 0 (u's
  // halo exchanged); nullptr when the state is u alone.
  std::unique_ptr<kernels::UpdateOperator> (*make_start)(const core::Config& cfg, const core::FieldLayout& layout);
  // The operator it steps, built from the input's stencil (resolved for the grid) and its physics
  // values; nullptr: the stencil itself. The loader leaves it in Config::stencil, so halos, kernels,
  // dt_max and the summary see the operator.
  core::Stencil (*operator_stencil)(const core::Stencil& stencil, const core::PhysicsValues& values, const core::GlobalGrid& grid);
  // Exact solution as a sum of Fourier modes at `step` (when it moves, e.g. advected); false when there
  // is none for this configuration; nullptr: none, or sine_amplitude's.
  bool (*exact_modes)(const core::Config& cfg, long step, kernels::ModeSum& out);
};

// Every equation, in the order of docs/equations.md.
const std::vector<const Equation*>& equations();

// The names of every equation, in registry order.
std::vector<std::string> equation_names();

// The row of `name`; throws core::Error "unknown equation "x" (expected one of: ...)" listing equation_names().
const Equation& find_equation(const std::string& name);

// The input loader's view of `eq` (core::load_config): its keys, stability limit and the physics
// keys only other equations read.
core::EquationInput loader_input(const Equation& eq);

// Amplitude at `step` of the exact discrete solution from the sine mode of cfg.init, when the
// equation has one (sine_amplitude) and kernels::sine_mode_is_exact(cfg); the eigenvalue lambda is
// the stencil's symbol at the mode.
double sine_mode_amplitude(const Equation& eq, const core::Config& cfg, long step);

// The equation's exact discrete solution for this configuration at a step, as a ModeSum (what
// Dirichlet exact walls follow, kernels::make_boundary): exact_modes where the row has it and it holds
// for cfg, else the sine mode's (sine_amplitude, where kernels::sine_mode_is_exact); empty when there
// is none.
std::function<kernels::ModeSum(long step)> exact_solution(const Equation& eq, const core::Config& cfg);

}  // namespace cartex::physics
