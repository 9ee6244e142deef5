#pragma once
// Initial conditions, and the exact discrete solution of the sine mode.
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

// Amplitude at `step` of the exact discrete solution from the sine mode (an eigenvector of the
// stencil operator L with eigenvalue lambda = the stencil's symbol at the mode):
//   heat, explicit Euler:  A * g^n,           g = 1 + dt*alpha*lambda
//   wave, leapfrog:        A * cos(n*w*dt),   cos(w*dt) = 1 + dt^2*c^2*lambda/2 (|.| <= 1 below dt_max),
//                          because the start u^(-1) = u^0 + dt^2*c^2/2 * L(u^0) is cos(w*dt) * u^0 for
//                          the mode and u^(n+1) = 2 cos(w*dt) u^n - u^(n-1) is then the Chebyshev recursion.
double sine_mode_amplitude(const core::Config& cfg, long step);

}  // namespace cartex::kernels
