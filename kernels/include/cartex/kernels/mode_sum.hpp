#pragma once
// An exact discrete solution as a short sum of Fourier modes, evaluated at any position on a device:
//
//   u(x, n) = sum_m Re( a_m(n) * exp(i * k_m . x) )        m = 0 .. count - 1 (at most kMaxModes)
//
// The host computes each mode's complex coefficient a_m(n) for the step n it needs (a_m(0) times the
// mode's amplification per step to the n-th power, or the leapfrog's Chebyshev value), so a kernel
// only evaluates cosines and sines of k_m . x. A product of sines or cosines over d dimensions is
// 2^d plane waves (sin a = (e^{ia} - e^{-ia}) / 2i), which is why 8 modes cover every separable 3D mode.
// Users: exact Dirichlet walls (ghost cells follow the solution) and the error checks of the apps.
#include <Kokkos_Core.hpp>

#include <array>
#include <complex>
#include <stdexcept>

#include "cartex/core/kokkos_compat.hpp"

namespace cartex::kernels {

struct ModeSum {
  static constexpr int kMaxModes = 8;
  int count = 0;
  Kokkos::Array<double, 3 * kMaxModes> k{};  // k[3m + d]: wave number of mode m in dimension d
  Kokkos::Array<double, kMaxModes> re{}, im{};  // a_m(n) for the step this ModeSum was made for

  // Appends a mode with wave numbers `kd` and coefficient `a`; throws std::length_error past kMaxModes.
  void add(const std::array<double, 3>& kd, std::complex<double> a);

  // u at position (x, y, z) (unused dimensions at 0).
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const {
    double u = 0;
    for (int m = 0; m < count; ++m) {
      const double phase = k[3 * m] * x + k[3 * m + 1] * y + k[3 * m + 2] * z;
      u += re[m] * core::kmath::cos(phase) - im[m] * core::kmath::sin(phase);
    }
    return u;
  }
};

inline void ModeSum::add(const std::array<double, 3>& kd, std::complex<double> a) {
  if (count >= kMaxModes) throw std::length_error("ModeSum::add: more than 8 modes");
  for (int d = 0; d < 3; ++d) k[3 * count + d] = kd[d];
  re[count] = a.real();
  im[count] = a.imag();
  ++count;
}

}  // namespace cartex::kernels
