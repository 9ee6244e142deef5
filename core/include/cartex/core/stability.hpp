#pragma once
// The largest stable time step of an explicit time scheme for the linear operator of any stencil,
// from the stencil's Fourier symbol (docs/stencils.md, "Stability"). On a periodic grid L maps the
// mode exp(i k.x) to lambda(theta) times itself, theta_d = k_d h_d in [-pi, pi]:
//
//   lambda(theta) = sum_q w_q exp(i o_q . theta)      complex; real iff w(o) == w(-o) for every o
//
// and a scheme multiplies the mode per step by its amplification factor g. The limit is the largest
// dt with |g| within bounds for every theta (a = `scale`, the factor of L in the equation):
//
//   integrator      step                          every mode must keep              limit
//   explicit Euler  u + dt a L(u)                 |1 + dt a lambda| <= 1 + dt a s   min 2 (s - Re l) / (a (|l|^2 - s^2))
//   leapfrog        2u - u_old + dt^2 a L(u)      |1 + dt^2 a lambda / 2| <= 1      2 / sqrt(a rho)
//
// Growth the equation has: modes with Re lambda > 0 grow in u_t = a L(u) itself (as e^(a Re l t)),
// and no time step stops that. Euler may let every mode grow by up to 1 + dt a s per step, s =
// max(0, max_theta Re lambda) the fastest growth of the equation (Lax-Richtmyer: the scheme grows no
// faster than e^(a s t)); so a growing reaction term alone leaves dt free, while a mode that the
// scheme amplifies beyond that (|lambda| > s, Re lambda = s) limits it or, at dt -> 0, makes every
// dt unstable. With s = 0 (no growing mode: Laplacians, upwind advection) this is |1 + dt a l| <= 1.
// Leapfrog is stable only for a real symbol <= 0 (rho = max -lambda); anything else is an error.
//
// Bits: a mirror-symmetric stencil whose symbol is <= 0 (every Laplacian family) gets exactly
// 2 / (a rho) (Euler) and 2 / (sqrt(a) sqrt(rho)) (leapfrog, a = c^2: sqrt(c*c) == c in IEEE), rho =
// Stencil::spectral_radius(): the formulas cartex always used, so dt keeps its bits. For any other
// mirror-symmetric stencil rho is the larger of that lattice's and the refined scan's below (the
// lattice alone can miss an extreme between its points and give a dt above the limit).
//
// What the scan guarantees, for the other stencils: the minimum over theta is searched by sampling
// a lattice over [-pi, pi]^dim (129 points per dimension in 2D, 33 in 3D; 0, +-pi and every corner
// included) and 17-point lattices over [-pi, pi]^dim scaled by 1e-2 and 1e-3, then nested finer
// lattices around the 8 best samples. Where lambda(0) = s the per-mode limit is 0/0 at theta = 0;
// its theta -> 0 limit (finite for advection-diffusion, 2 nu / v^2 for central advection, and
// possibly the infimum without being attained) comes exactly from the weights' first and second
// moments, minimised over directions, and modes closer to 0 than 1e-4 in phase are left to it
// (rounding would decide there). The result is the smallest per-mode limit found: exact where the
// minimum lies on the lattice (corners: stars, box, first-order upwind) or at theta -> 0, else above
// the true minimum by what the refinement leaves (1e-6 relative or less against brute force in the
// tests); a dip narrower than the lattice spacing can be missed.
#include <array>
#include <complex>
#include <stdexcept>
#include <string>

#include "cartex/core/stencil.hpp"

namespace cartex::core {

// The time schemes cartex steps with.
enum class Integrator { kExplicitEuler, kLeapfrog };

// "explicit Euler" or "leapfrog", for messages.
const char* integrator_name(Integrator integrator);

// lambda(theta) of `s` (its weights include the spacing, so theta_d = k_d h_d). The real part is
// summed as sum w - 2 sum w sin^2(o.theta / 2), accurate for small theta where cos(o.theta) ~ 1.
std::complex<double> fourier_symbol(const Stencil& s, const std::array<double, 3>& theta);

// The time-step limit and the mode that sets it, for messages.
struct TimeStepLimit {
  double dt_max = 0;                   // the largest stable dt; +infinity when no mode limits it
  bool from_spectral_radius = false;   // the formula of a real symbol <= 0 (rho below) set it
  double rho = 0;                      // max -lambda of a real symbol <= 0 (the formulas'; else 0)
  double growth = 0;                   // s = max(0, max Re lambda): growth of the equation itself (Euler)
  std::array<double, 3> theta{0, 0, 0};  // the limiting mode (not from_spectral_radius); towards_zero: the direction
  std::complex<double> lambda{0, 0};     // lambda(theta) of the limiting mode
  bool towards_zero = false;             // the infimum is the theta -> 0 limit along `theta`, attained by no mode
};

// "rho = ...", "the mode theta = [...] with lambda = ...", or "the limit as theta = t * [...] tends
// to 0": what sets the limit, for messages.
std::string limiting_mode_text(const TimeStepLimit& limit, int dim);

// Thrown when no dt > 0 is stable (Euler: a mode with Re lambda = s amplified beyond 1 + dt a s,
// e.g. a pure central first derivative, whose symbol is imaginary) or the integrator cannot take the
// stencil (leapfrog: the symbol is not real and <= 0). The message says why and what would help.
class NoStableTimeStep : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The stability limit of `integrator` stepping u_t = scale L(u) (Euler) or u_tt = scale L(u)
// (leapfrog) with the stencil `s` (validated, weights for the run's grid); scale > 0.
TimeStepLimit time_step_limit(const Stencil& s, Integrator integrator, double scale);

}  // namespace cartex::core
