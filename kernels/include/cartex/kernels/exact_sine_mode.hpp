#pragma once
// The sine mode's exact discrete solution as a ModeSum (the value Dirichlet exact walls follow): the
// mode prod_d f_d(k_d x_d) (f_d = sin, or cos in a dimension whose low wall is Neumann:
// kernels/initial.hpp) times an amplitude, as 2^dim plane waves. The amplitude at a step is the
// equation's (physics::sine_mode_amplitude: heat's Euler factor, wave's leapfrog Chebyshev value;
// physics::exact_solution combines the two).
#include "cartex/core/config.hpp"
#include "cartex/kernels/mode_sum.hpp"

namespace cartex::kernels {

// The run's sine mode (cfg.init.type is sine) with amplitude `amplitude`.
ModeSum exact_sine_mode(const core::Config& cfg, double amplitude);

}  // namespace cartex::kernels
