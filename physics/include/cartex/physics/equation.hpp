#pragma once
// The equations cartex solves, one descriptor (row) each, in one registry (src/equations.cpp, whose
// header draws the rows side by side) that the driver, the input loader (through loader_input),
// checkpoints, the dry run and the tests all read.
//
// Adding an equation: one source file in src/ defining its row (by name: Equation's members have
// defaults), its line in src/equations.cpp's list and table, one cartex_equation() line in
// CMakeLists.txt (which makes its program too), an input, docs (docs/equations.md; docs/input.md's
// key table: input_docs --update) and tests.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/equation_input.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/stability.hpp"
#include "cartex/core/state.hpp"
#include "cartex/kernels/mode_sum.hpp"
#include "cartex/kernels/update_operator.hpp"

namespace cartex::physics {

// The field coefficients of a run: each physics key of kind kCoefficient given as a field (heat's
// physics.alpha: layers, gaussian or hdf5), built by the driver on the run's layout (halo included,
// never exchanged) and stored in checkpoints under the key's name; by key.
using CoefficientFields = std::map<std::string, std::shared_ptr<const core::Field>>;

// One row of the registry, built by name: every member has its default, so a row sets only what it
// has (see heat.cpp for the shape).
struct Equation {
  const char* name = "";   // as inputs, checkpoints and messages name it: "heat"
  const char* app = "";    // its program: "heat3d" (CMake: cartex_equation in physics/CMakeLists.txt)
  const char* title = "";  // the program's --help line: "explicit heat equation"
  const char* pde = "";    // "u_t = alpha L(u)" (L: the stencil's operator)
  std::vector<core::PhysicsKey> keys;  // its physics.* keys (physics.dt and physics.cfl are everyone's)
  // Its unknowns, the solution u first: the fields of the state each step advances, exchanged together,
  // and their dataset names in output files and checkpoints (kept forever so that old files load).
  std::vector<std::string> fields{"u"};
  // How a step advances the state: explicit Euler (one level) or leapfrog (two: the state and its
  // previous level, stored in checkpoints as NAME_previous; state_names()).
  core::Integrator integrator = core::Integrator::kExplicitEuler;
  // The stability limit of the integrator with the stencil (resolved for the grid) and physics values,
  // and its formula for messages. Every row has one.
  core::TimeStepLimit (*dt_max)(const core::Stencil& stencil, const core::PhysicsValues& values) = nullptr;
  const char* limit_text = "";
  std::vector<std::string> initial_conditions{"sine", "gaussian"};  // the init.type values it accepts
  // The state at step 0 (interiors; the walls are filled after it); nullptr: the first field from
  // init (kernels::fill_initial), the others zero.
  void (*fill_initial)(const core::Config& cfg, core::State& state) = nullptr;
  // Exact solution of the sine mode (an eigenvector of L with eigenvalue lambda): its amplitude after
  // n steps, for amplitude `a` at step 0; nullptr when the equation has none.
  double (*sine_amplitude)(const core::Config& cfg, double lambda, double n, double a) = nullptr;
  // The update of one step (registered point updates of the stencil's name come first, in the driver),
  // with the run's field coefficients. Every row has one.
  std::unique_ptr<kernels::UpdateOperator> (*make_update)(const core::Config& cfg, const core::FieldLayout& layout,
                                                          const CoefficientFields& coefficients) = nullptr;
  // The start of a leapfrog: the operator that computes the previous level from the state at step 0
  // (its halo exchanged); nullptr for Euler.
  std::unique_ptr<kernels::UpdateOperator> (*make_start)(const core::Config& cfg, const core::FieldLayout& layout) = nullptr;
  // The operator it steps, built from the input's stencil (resolved for the grid) and its physics
  // values; nullptr: the stencil itself. The loader leaves it in Config::stencil, so halos, kernels,
  // dt_max and the summary see the operator.
  core::Stencil (*operator_stencil)(const core::Stencil& stencil, const core::PhysicsValues& values,
                                    const core::GlobalGrid& grid) = nullptr;
  // Exact solution as a sum of Fourier modes at `step` (when it moves, e.g. advected); false when there
  // is none for this configuration; nullptr: none, or sine_amplitude's.
  bool (*exact_modes)(const core::Config& cfg, long step, kernels::ModeSum& out) = nullptr;
};

// The datasets of `eq`'s state in a checkpoint: its fields, then for leapfrog each field's previous
// level NAME_previous (wave: u, u_previous).
std::vector<std::string> state_names(const Equation& eq);

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
