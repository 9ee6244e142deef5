#include "cartex/kernels/exact_sine_mode.hpp"

#include <complex>

#include "cartex/kernels/initial.hpp"

namespace cartex::kernels {

ModeSum exact_sine_mode(const core::Config& cfg, double amplitude) {
  const std::array<double, 3> k = sine_wave_numbers(cfg.grid, cfg.init);
  const std::array<bool, 3> cosine = sine_mode_cosines(cfg.grid);
  const int dim = cfg.grid.dim;
  // sin a = (e^{ia} - e^{-ia}) / 2i, cos a = (e^{ia} + e^{-ia}) / 2: one plane wave per sign choice.
  ModeSum out;
  for (int signs = 0; signs < (1 << dim); ++signs) {
    std::complex<double> a = amplitude;
    std::array<double, 3> kd{0, 0, 0};
    for (int d = 0; d < dim; ++d) {
      const double s = (signs >> d) & 1 ? -1.0 : 1.0;
      kd[d] = s * k[d];
      a *= cosine[d] ? std::complex<double>(0.5, 0) : std::complex<double>(0, -0.5 * s);  // s / 2i = -i s / 2
    }
    out.add(kd, a);
  }
  return out;
}

}  // namespace cartex::kernels
