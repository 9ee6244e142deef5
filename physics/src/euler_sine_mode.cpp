#include "cartex/physics/euler_sine_mode.hpp"

#include <cmath>

#include "cartex/core/stability.hpp"

namespace cartex::physics {

std::complex<double> euler_amplification(const core::Stencil& s, double dt, const std::array<double, 3>& kappa,
                                         const core::GlobalGrid& grid) {
  std::array<double, 3> theta{0, 0, 0};
  for (int d = 0; d < grid.dim; ++d) theta[d] = kappa[d] * grid.spacing(d);
  return 1.0 + dt * core::fourier_symbol(s, theta);
}

kernels::ModeSum euler_sine_mode(const core::Stencil& s, double dt, double amplitude, const std::array<double, 3>& k,
                                 const core::GlobalGrid& grid, long step) {
  kernels::ModeSum sum;
  const int waves = 1 << grid.dim;
  // 1 / (2i)^dim
  std::complex<double> scale = amplitude;
  for (int d = 0; d < grid.dim; ++d) scale /= std::complex<double>(0, 2);
  for (int w = 0; w < waves; ++w) {
    std::array<double, 3> kappa{0, 0, 0};
    double sign = 1;
    for (int d = 0; d < grid.dim; ++d) {
      const double s_d = (w >> d) & 1 ? -1.0 : 1.0;
      kappa[d] = s_d * k[d];
      sign *= s_d;
    }
    const std::complex<double> G = euler_amplification(s, dt, kappa, grid);
    const double n = static_cast<double>(step);
    const std::complex<double> Gn = std::polar(std::pow(std::abs(G), n), n * std::arg(G));
    sum.add(kappa, sign * scale * Gn);
  }
  return sum;
}

}  // namespace cartex::physics
