#pragma once
// The exact discrete solution of explicit Euler, u^{n+1} = u^n + dt * L(u^n), for ANY linear stencil
// L (not only mirror-symmetric ones) started from the sine mode A prod_d sin(k_d x_d) on a periodic
// grid. The mode is 2^dim plane waves,
//
//   A prod_d sin(k_d x_d) = A / (2i)^dim * sum_{s in {-1,+1}^dim} (prod_d s_d) e^{i (s k) . x},
//
// and each plane wave is an eigenvector of L: L e^{i kappa . x} = lambda(theta) e^{i kappa . x} with
// the complex symbol lambda(theta) = sum_q w_q e^{i theta . o_q}, theta_d = kappa_d h_d. One step
// multiplies it by G = 1 + dt * lambda, so step n is the kernels::ModeSum with the 2^dim wave vectors
// s k and coefficients A prod_d s_d / (2i)^dim * G_s^n. A non-symmetric L (advection) gives complex
// G: the wave moves (phase) and, if |G| < 1, decays.
#include <array>
#include <complex>

#include "cartex/core/grid.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/mode_sum.hpp"

namespace cartex::physics {

// The amplification factor of explicit Euler for the plane wave of wave vector `kappa` on `grid`:
// 1 + dt * lambda, lambda the stencil's symbol (core::fourier_symbol).
std::complex<double> euler_amplification(const core::Stencil& s, double dt, const std::array<double, 3>& kappa,
                                         const core::GlobalGrid& grid);

// The exact solution at `step` from amplitude * prod_d sin(k_d x_d) (k[d] unused beyond grid.dim);
// G^n as |G|^n e^{i n arg G}. Exact where every dimension is periodic or between walls that follow it (the caller's check).
kernels::ModeSum euler_sine_mode(const core::Stencil& s, double dt, double amplitude, const std::array<double, 3>& k,
                                 const core::GlobalGrid& grid, long step);

}  // namespace cartex::physics
