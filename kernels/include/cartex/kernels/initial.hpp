#pragma once
// Initial conditions, and when the sine mode is an exact discrete solution (its amplitude is the
// equation's: physics::sine_mode_amplitude).
#include <array>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"

namespace cartex::kernels {

// Fills the interior of `f` with the initial condition `init` on `grid`:
//   sine:     A * prod_d sin(k_d x_d), k_d = 2 pi m_d / L_d (periodic) or pi m_d / L_d (Dirichlet)
//   gaussian: A * exp(-|x - c|^2 / (2 w^2))
void fill_initial(core::Field& f, const core::GlobalGrid& grid, const core::InitConfig& init);

// The sine mode's wave numbers k_d (0 for unused dimensions).
std::array<double, 3> sine_wave_numbers(const core::GlobalGrid& grid, const core::InitConfig& init);

// True when the sine mode is an exact eigenvector of the discrete update: the stencil is mirror
// symmetric and every non-periodic dimension has zero Dirichlet values and a reach of at most one
// cell (so the ghost value 0 equals the odd continuation of the sine).
bool sine_mode_is_exact(const core::Config& cfg);

}  // namespace cartex::kernels
