#include "history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "cartex/core/error.hpp"
#include "cartex/core/phase_profile.hpp"
#include "cartex/core/schedule.hpp"
#include "cartex/kernels/initial.hpp"

namespace cartex::app {

namespace {

const std::vector<std::string> kColumns{"step", "time", "sum", "min", "max", kIntegralColumn, "sine_rel_error"};

// Index of column `name` in `t` (or of its old name `alias`); throws Error if absent.
size_t column(const io::Table& t, const std::string& name, const std::string& alias = "") {
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c] == name || (!alias.empty() && t.columns[c] == alias)) return c;
  throw Error(fmt::format("checkpoint history has no column {} (columns: {})", name, fmt::join(t.columns, ",")));
}

double cell_volume(const GlobalGrid& g) {
  double v = 1;
  for (int d = 0; d < g.dim; ++d) v *= g.spacing(d);
  return v;
}

// Amplitude at `step` of the exact discrete solution from the sine mode (an eigenvector of L with
// eigenvalue lambda = the stencil's symbol at the mode):
//   heat, explicit Euler:  A * g^n,           g = 1 + dt*alpha*lambda
//   wave, leapfrog:        A * cos(n*w*dt),   cos(w*dt) = 1 + dt^2*c^2*lambda/2 (|.| <= 1 below dt_max),
//                          because the start u^(-1) = u^0 + dt^2*c^2/2 * L(u^0) is cos(w*dt) * u^0 for
//                          the mode and u^(n+1) = 2 cos(w*dt) u^n - u^(n-1) is then the Chebyshev recursion.
double exact_amplitude(const Config& cfg, long step) {
  const double n = static_cast<double>(step);
  if (cfg.equation == Equation::kHeat) return cfg.init.amplitude * std::pow(kernels::sine_mode_growth(cfg), n);
  const auto k = kernels::sine_wave_numbers(cfg.grid, cfg.init);
  std::array<double, 3> theta{};
  for (int d = 0; d < 3; ++d) theta[d] = k[d] * cfg.grid.spacing(d);
  const double c1 = 1.0 + 0.5 * cfg.dt * cfg.dt * cfg.speed * cfg.speed * cfg.stencil.symbol(theta);
  return cfg.init.amplitude * std::cos(n * std::acos(std::clamp(c1, -1.0, 1.0)));
}

}  // namespace

io::Table history_table(const std::vector<Record>& rows) {
  io::Table t{kColumns, {}};
  for (const auto& r : rows)
    t.values.insert(t.values.end(), {double(r.step), r.time, r.stats.sum, r.stats.min, r.stats.max, r.integral, r.error});
  return t;
}

std::vector<Record> history_records(const io::Table& t) {
  const size_t width = t.columns.size();
  const size_t step = column(t, "step"), time = column(t, "time"), sum = column(t, "sum"), min = column(t, "min"),
               max = column(t, "max"), integral = column(t, kIntegralColumn, "total_heat"),
               error = column(t, "sine_rel_error");
  std::vector<Record> rows;
  for (size_t at = 0; at + width <= t.values.size(); at += width) {
    const double* v = &t.values[at];
    rows.push_back({static_cast<long>(v[step]), v[time], kernels::FieldStats{v[sum], v[min], v[max]}, v[integral], v[error]});
  }
  return rows;
}

Record diagnose(const Setup& s, const Field& u, long step, const kernels::Allreduce& reduce) {
  PhaseScope phase(Phase::kDiagnostics);
  const MPI_Comm comm = s.comm();
  Record r{step, step_time(s.cfg, step), kernels::field_stats(u, comm, reduce), 0.0, -1.0};
  r.integral = r.stats.sum * cell_volume(s.cfg.grid);
  if (kernels::sine_mode_is_exact(s.cfg)) {
    const double amp = exact_amplitude(s.cfg, step);
    const double err = kernels::max_error_vs_sine(u, s.cfg.grid, kernels::sine_wave_numbers(s.cfg.grid, s.cfg.init), amp, comm, reduce);
    r.error = amp != 0.0 ? err / std::abs(amp) : err;
  }
  return r;
}

std::string describe(const Record& r) {
  std::string t = fmt::format("{}={:+.6e}  max={:.6e}", kIntegralColumn, r.integral, r.stats.max);
  if (r.error >= 0) t += fmt::format("  err={:.2e}", r.error);
  return t;
}

void write_history(const std::string& dir, const std::vector<Record>& rows) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/history.csv", tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error(fmt::format("cannot write {}", tmp));
    out << fmt::format("step,time,{},min,max,sine_rel_error\n", kIntegralColumn);
    for (const auto& r : rows)
      out << fmt::format("{},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", r.step, r.time, r.integral, r.stats.min,
                         r.stats.max, r.error >= 0 ? fmt::format("{:.6e}", r.error) : std::string());
    if (!out.flush()) throw Error(fmt::format("cannot write {}", tmp));
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace cartex::app
