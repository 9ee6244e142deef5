// The exact discrete solution of the sine mode, through the equation's row (equation.hpp).
#include "cartex/core/error.hpp"
#include "cartex/kernels/exact_sine_mode.hpp"
#include "cartex/kernels/initial.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex::physics {

double sine_mode_amplitude(const Equation& eq, const core::Config& cfg, long step) {
  core::require(eq.sine_amplitude != nullptr, "sine_mode_amplitude: the equation has no exact solution");
  const auto k = kernels::sine_wave_numbers(cfg.grid, cfg.init);
  std::array<double, 3> theta{};
  for (int d = 0; d < 3; ++d) theta[d] = k[d] * cfg.grid.spacing(d);
  const double lambda = cfg.stencil.symbol(theta);
  return eq.sine_amplitude(cfg, lambda, static_cast<double>(step), cfg.init.amplitude);
}

std::function<kernels::ModeSum(long step)> exact_solution(const Equation& eq, const core::Config& cfg) {
  if (eq.exact_modes) {
    kernels::ModeSum probe;
    if (!eq.exact_modes(cfg, 0, probe)) return {};
    return [&eq, cfg](long step) {
      kernels::ModeSum m;
      eq.exact_modes(cfg, step, m);
      return m;
    };
  }
  if (eq.sine_amplitude == nullptr || !kernels::sine_mode_is_exact(cfg)) return {};
  return [&eq, cfg](long step) { return kernels::exact_sine_mode(cfg, sine_mode_amplitude(eq, cfg, step)); };
}

}  // namespace cartex::physics
