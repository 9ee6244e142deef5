#include "diagnostics_record.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cartex/core/phase_profile.hpp"
#include "cartex/core/schedule.hpp"
#include "cartex/kernels/initial.hpp"
#include "cartex/kernels/mode_error.hpp"

namespace cartex::app {

namespace {

double cell_volume(const core::GlobalGrid& g) {
  double v = 1;
  for (int d = 0; d < g.dim; ++d) v *= g.spacing(d);
  return v;
}

}  // namespace

Record diagnose(const Setup& s, const core::State& state, long step, const kernels::Allreduce& reduce) {
  core::PhaseScope phase(core::Phase::kDiagnostics);
  const MPI_Comm comm = s.comm();
  Record r;
  r.step = step;
  r.time = core::step_time(s.cfg, step);
  for (const core::Field& f : state) {
    const kernels::FieldStats stats = kernels::field_stats(f, comm, reduce);
    r.fields.push_back({stats, stats.sum * cell_volume(s.cfg.grid)});
  }
  const core::Field& u = state[0];
  kernels::ModeSum modes;
  if (s.equation->exact_modes && s.equation->exact_modes(s.cfg, step, modes)) {
    r.error = kernels::relative_error_vs_modes(u, s.cfg.grid, modes, comm, reduce);
  } else if (s.equation->sine_amplitude && kernels::sine_mode_is_exact(s.cfg)) {
    const double amp = physics::sine_mode_amplitude(*s.equation, s.cfg, step);
    const double err =
        kernels::max_error_vs_sine(u, s.cfg.grid, kernels::sine_wave_numbers(s.cfg.grid, s.cfg.init), amp, comm, reduce);
    r.error = amp != 0.0 ? err / std::abs(amp) : err;
  }
  return r;
}

std::string describe(const Setup& s, const Record& r) {
  std::string t = fmt::format("{}={:+.6e}  max={:.6e}", kIntegralColumn, r.fields[0].integral, r.fields[0].stats.max);
  for (std::size_t q = 1; q < r.fields.size(); ++q) t += fmt::format("  {}_max={:.6e}", s.equation->fields[q], r.fields[q].stats.max);
  if (r.error >= 0) t += fmt::format("  err={:.2e}", r.error);
  return t;
}

}  // namespace cartex::app
