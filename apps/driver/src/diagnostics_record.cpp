#include "diagnostics_record.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cartex/core/phase_profile.hpp"
#include "cartex/core/schedule.hpp"
#include "cartex/kernels/initial.hpp"

namespace cartex::app {

namespace {

double cell_volume(const core::GlobalGrid& g) {
  double v = 1;
  for (int d = 0; d < g.dim; ++d) v *= g.spacing(d);
  return v;
}

}  // namespace

Record diagnose(const Setup& s, const core::Field& u, long step, const kernels::Allreduce& reduce) {
  core::PhaseScope phase(core::Phase::kDiagnostics);
  const MPI_Comm comm = s.comm();
  Record r{step, core::step_time(s.cfg, step), kernels::field_stats(u, comm, reduce), 0.0, -1.0};
  r.integral = r.stats.sum * cell_volume(s.cfg.grid);
  if (s.equation->sine_amplitude && kernels::sine_mode_is_exact(s.cfg)) {
    const double amp = physics::sine_mode_amplitude(*s.equation, s.cfg, step);
    const double err =
        kernels::max_error_vs_sine(u, s.cfg.grid, kernels::sine_wave_numbers(s.cfg.grid, s.cfg.init), amp, comm, reduce);
    r.error = amp != 0.0 ? err / std::abs(amp) : err;
  }
  return r;
}

std::string describe(const Record& r) {
  std::string t = fmt::format("{}={:+.6e}  max={:.6e}", kIntegralColumn, r.integral, r.stats.max);
  if (r.error >= 0) t += fmt::format("  err={:.2e}", r.error);
  return t;
}

}  // namespace cartex::app
