#pragma once
// The sine mode's exact discrete solution as a ModeSum (the value Dirichlet exact walls follow): the
// initial mode A * prod_d f_d(k_d x_d) (f_d = sin, or cos in a dimension whose low wall is Neumann:
// kernels/initial.hpp) times its amplitude at a step, as 2^dim plane waves. The equation supplies
// the amplitude (sine_mode_amplitude: heat's Euler factor, wave's leapfrog Chebyshev value); this
// small function is the per-equation provider until equations are registry rows.
#include "cartex/core/config.hpp"
#include "cartex/kernels/mode_sum.hpp"

namespace cartex::kernels {

// The run's sine mode at `step` (cfg.init.type is sine).
ModeSum exact_sine_mode(const core::Config& cfg, long step);

}  // namespace cartex::kernels
