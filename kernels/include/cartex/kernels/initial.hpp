#pragma once
// Initial conditions, and when the sine mode is an exact discrete solution (its amplitude is the
// equation's: physics::sine_mode_amplitude).
#include <array>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"

namespace cartex::kernels {

// Fills the interior of `f` with the initial condition `init` on `grid`:
//   sine:     A * prod_d f_d(k_d x_d), the walls' eigenmode (docs/boundaries.md): f_d = cos when the
//             low wall of d is Neumann, else sin; k_d = 2 pi m_d / L_d (periodic), pi m_d / L_d (two
//             walls of one kind) or pi (m_d - 1/2) / L_d (a Dirichlet and a Neumann wall)
//   gaussian: A * exp(-|x - c|^2 / (2 w^2))
void fill_initial(core::Field& f, const core::GlobalGrid& grid, const core::InitConfig& init);

// The sine mode's wave numbers k_d (0 for unused dimensions).
std::array<double, 3> sine_wave_numbers(const core::GlobalGrid& grid, const core::InitConfig& init);

// Per dimension: true when the sine mode's factor there is a cosine (a Neumann low wall).
std::array<bool, 3> sine_mode_cosines(const core::GlobalGrid& grid);

// True when the sine mode is an exact eigenvector of the discrete update: the stencil is mirror
// symmetric and every wall's ghost cells continue the mode: a Neumann wall with zero flux (even
// mirror, any reach), a Dirichlet exact wall, or a zero Dirichlet wall with a reach of at most one
// cell there (so the ghost value 0 equals the odd continuation of the sine).
bool sine_mode_is_exact(const core::Config& cfg);

}  // namespace cartex::kernels
