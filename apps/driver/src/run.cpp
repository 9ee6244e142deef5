#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cartex/core/error.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/progress.hpp"
#include "cartex/core/timer.hpp"
#include "cartex/core/version.hpp"
#include "cartex/io/output_writer.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/diagnostics.hpp"
#include "cartex/kernels/initial.hpp"
#include "cartex/kernels/linear_update.hpp"
#include "cartex/kernels/update_registry.hpp"

#include "driver.hpp"
#include "stepper.hpp"

namespace cartex::app {

namespace {

// One row of the diagnostics history.
struct Record {
  long step;
  double time;
  FieldStats stats;
  double heat;   // integral of u: sum of u times the cell volume (heat: the total heat)
  double error;  // relative max error against the exact discrete sine solution; < 0 if not exact
};

// The history as a table for checkpoints, and back: a restarted run continues the same rows.
io::Table history_table(const std::vector<Record>& rows) {
  io::Table t{{"step", "time", "sum", "min", "max", "total_heat", "sine_rel_error"}, {}};
  for (const auto& r : rows)
    t.values.insert(t.values.end(), {double(r.step), r.time, r.stats.sum, r.stats.min, r.stats.max, r.heat, r.error});
  return t;
}

std::vector<Record> history_records(const io::Table& t) {
  std::vector<Record> rows;
  for (size_t at = 0; at + 7 <= t.values.size(); at += 7) {
    const double* v = &t.values[at];
    rows.push_back({static_cast<long>(v[0]), v[1], FieldStats{v[2], v[3], v[4]}, v[5], v[6]});
  }
  return rows;
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
  if (cfg.equation == Equation::kHeat) return cfg.init.amplitude * std::pow(sine_mode_growth(cfg), n);
  const auto k = sine_wave_numbers(cfg.grid, cfg.init);
  std::array<double, 3> theta{};
  for (int d = 0; d < 3; ++d) theta[d] = k[d] * cfg.grid.spacing(d);
  const double c1 = 1.0 + 0.5 * cfg.dt * cfg.dt * cfg.speed * cfg.speed * cfg.stencil.symbol(theta);
  return cfg.init.amplitude * std::cos(n * std::acos(std::clamp(c1, -1.0, 1.0)));
}

Record diagnose(const Setup& s, const Field& u, long step, const Allreduce& reduce) {
  const MPI_Comm comm = s.comm();
  Record r{step, step * s.cfg.dt, field_stats(u, comm, reduce), 0.0, -1.0};
  r.heat = r.stats.sum * cell_volume(s.cfg.grid);
  if (sine_mode_is_exact(s.cfg)) {
    const double amp = exact_amplitude(s.cfg, step);
    const double err = max_error_vs_sine(u, s.cfg.grid, sine_wave_numbers(s.cfg.grid, s.cfg.init), amp, comm, reduce);
    r.error = amp != 0.0 ? err / std::abs(amp) : err;
  }
  return r;
}

// What the summary and progress lines call the integral of u.
const char* integral_name(const Config& cfg) { return cfg.equation == Equation::kHeat ? "total heat" : "integral of u"; }

std::string describe(const Config& cfg, const Record& r) {
  std::string t = fmt::format("{}={:+.6e}  max={:.6e}", cfg.equation == Equation::kHeat ? "heat" : "int_u", r.heat, r.stats.max);
  if (r.error >= 0) t += fmt::format("  err={:.2e}", r.error);
  return t;
}

// Writes the history CSV atomically: NAME.tmp, then rename.
void write_history(const std::string& dir, const std::vector<Record>& rows) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/history.csv", tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error(fmt::format("cannot write {}", tmp));
    out << "step,time,total_heat,min,max,sine_rel_error\n";
    for (const auto& r : rows)
      out << fmt::format("{},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", r.step, r.time, r.heat, r.stats.min,
                         r.stats.max, r.error >= 0 ? fmt::format("{:.6e}", r.error) : std::string());
    if (!out.flush()) throw Error(fmt::format("cannot write {}", tmp));
  }
  std::filesystem::rename(tmp, path);
}

// min, avg, max of a per-rank value.
std::array<double, 3> spread(double v, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  double mn = 0, mx = 0, sum = 0;
  MPI_Allreduce(&v, &mn, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&v, &mx, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  return {mn, sum / size, mx};
}

// The update of a step: a registered point update of the stencil's name, else the linear stencil
// operator as explicit Euler (heat) or leapfrog (wave).
std::unique_ptr<UpdateOperator> make_update(const Setup& s) {
  const Config& c = s.cfg;
  if (const UpdateFactory* make = find_update(c.stencil.name)) return (*make)(c, s.pattern.layout);
  if (c.equation == Equation::kHeat) return std::make_unique<LinearUpdate>(c.stencil, s.pattern.layout, Scheme::kEuler, c.dt * c.alpha);
  return std::make_unique<LinearUpdate>(c.stencil, s.pattern.layout, Scheme::kLeapfrog, c.dt * c.dt * c.speed * c.speed);
}

// Wave: the level before the first, u^(-1) = u^0 + dt^2*c^2/2 * L(u^0) (zero initial velocity,
// second order; exact for the sine mode). Exchanges u's halo first.
void start_leapfrog(const Setup& s, Stepper& stepper, Field& u, Field& previous) {
  const Config& c = s.cfg;
  stepper.exchange(u);
  LinearUpdate(c.stencil, s.pattern.layout, Scheme::kEuler, 0.5 * c.dt * c.dt * c.speed * c.speed).apply(u, previous);
}

}  // namespace

int run(const Setup& s) {
  const MPI_Comm comm = s.comm();
  const Allreduce reduce = s.placement->allreduce(s.cfg.allreduce);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const Config& cfg = s.cfg;
  const FieldLayout& layout = s.pattern.layout;

  // u holds step n; next receives step n + 1 (wave: it holds step n - 1 until then).
  Field u("u", layout), next("u_next", layout);
  const bool wave = cfg.equation == Equation::kWave;
  if (s.restart) {
    io::load_checkpoint_field(*s.restart, "u", u);
    if (wave) io::load_checkpoint_field(*s.restart, "u_previous", next);
  } else {
    fill_initial(u, cfg.grid, cfg.init);
  }
  fill_dirichlet(u, cfg.grid, cfg.dirichlet);
  fill_dirichlet(next, cfg.grid, cfg.dirichlet);
  Stepper stepper(s, make_update(s));
  if (wave && !s.restart) start_leapfrog(s, stepper, u, next);
  if (cfg.overlap) stepper.calibrate(u);

  Progress progress(stdout, rank == 0 && cfg.progress_every > 0);
  const long first = s.restart ? s.restart->step : 0;
  std::vector<Record> history = s.restart ? history_records(s.restart->history) : std::vector<Record>{diagnose(s, u, 0, reduce)};
  io::OutputWriter writer(cfg, s.procs, first, s.restart ? s.restart->path : std::string(), comm);
  const auto table = [&history] { return history_table(history); };
  // The state a checkpoint must hold to continue bitwise (io::checkpoint_field_names).
  const auto state = [&]() -> std::vector<io::NamedField> {
    if (wave) return {{"u", &u}, {"u_previous", &next}};
    return {{"u", &u}};
  };
  writer.maybe_write(first, state(), table);

  Timer total, exchange, compute;
  const double output_before_loop = writer.stats().seconds;
  MPI_Barrier(comm);
  total.start();
  const double t_start = MPI_Wtime();
  for (long step = first + 1; step <= cfg.steps; ++step) {
    stepper.step(u, next);
    std::swap(u, next);
    if (cfg.progress_every > 0 && (step % cfg.progress_every == 0 || step == cfg.steps)) {
      Record r = diagnose(s, u, step, reduce);
      progress.record(step, cfg.steps, r.time, describe(cfg, r), MPI_Wtime() - t_start);
      history.push_back(r);
    }
    writer.maybe_write(step, state(), table);
  }
  Kokkos::fence();
  total.stop();
  progress.finish();

  const Record last = diagnose(s, u, cfg.steps, reduce);
  if (history.back().step != cfg.steps) history.push_back(last);
  const std::uint64_t checksum = field_checksum(u, cfg.grid, comm, reduce);
  // Output inside the loop is reported on its own line, not as time per step.
  const double t_steps = total.seconds() - (writer.stats().seconds - output_before_loop);
  const auto share = spread(t_steps > 0 ? stepper.exchange_seconds() / t_steps : 0.0, comm);
  const auto t_total = spread(t_steps, comm);
  const HaloStats hs = stepper.plan().stats();
  const auto msgs = spread(static_cast<double>(hs.messages), comm);
  const auto bytes = spread(static_cast<double>(hs.bytes), comm);
  const auto hidden = spread(stepper.hidden_fraction(), comm);
  const auto blocking = spread(stepper.blocking_seconds(), comm);
  if (rank == 0 && cfg.write_history) write_history(cfg.output_dir, history);

  if (rank == 0) {
    const int dim = cfg.grid.dim;
    const double steps = static_cast<double>(std::max(1L, cfg.steps - first));  // steps this run took
    const double t = t_total[2];
    fmt::print("cartex {} {} (commit {})\n", s.app, kVersion, kGitCommit);
    fmt::print("  grid            {} cells, {}D, stencil {} ({} kernel), backend {}\n",
               fmt::join(cfg.grid.n.begin(), cfg.grid.n.begin() + dim, "x"), dim, cfg.stencil.name, stepper.kernel_name(),
               stepper.plan().backend());
    if (!stepper.plan().note().empty()) fmt::print("  backend choice  {}\n", stepper.plan().note());
    fmt::print("  processes       {} ranks as {}\n", s.procs.size(), fmt::join(s.procs.dims.begin(), s.procs.dims.begin() + dim, "x"));
    fmt::print("  placement       {}; diagnostics allreduce {}\n", placement_text(*s.placement, dim), cfg.allreduce);
    fmt::print("  kokkos          {}.{}.{}, {}, {} thread(s) per rank\n", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
               KOKKOS_VERSION % 100, Kokkos::DefaultExecutionSpace::name(), Kokkos::DefaultExecutionSpace().concurrency());
    fmt::print("  steps           {} of dt {:.6g} (cfl {:.3g}), t_end {:.6g}\n", cfg.steps, cfg.dt, cfg.cfl, cfg.steps * cfg.dt);
    fmt::print("  time/step       {:.4g} ms\n", 1e3 * t / steps);
    fmt::print("  MLUP/s          {:.2f}\n", t > 0 ? cfg.grid.cells() * static_cast<double>(cfg.steps - first) / t / 1e6 : 0.0);
    fmt::print("  exchange share  min {:.1f}%  avg {:.1f}%  max {:.1f}%\n", 100 * share[0], 100 * share[1], 100 * share[2]);
    fmt::print("  halo            {} exchange(s), one every {} step(s); per exchange and rank: messages {:.0f}..{:.0f}, "
               "bytes {:.0f}..{:.0f}, rounds {}\n",
               stepper.exchanges(), cfg.steps_per_exchange, msgs[0], msgs[2], bytes[0], bytes[2], hs.rounds);
    if (cfg.overlap)
      fmt::print("  overlap         hidden {:.0f}% of a blocking exchange (min {:.0f}%, max {:.0f}% over ranks; blocking {:.3g} ms)\n",
                 100 * hidden[1], 100 * hidden[0], 100 * hidden[2], 1e3 * blocking[2]);
    const double heat0 = history.front().heat, heat = last.heat;
    fmt::print("  {:<15} {:.15e} (start {:.15e}, change {:+.3e})\n", integral_name(cfg), heat, heat0, heat - heat0);
    fmt::print("  min / max       {:.15e} / {:.15e}\n", last.stats.min, last.stats.max);
    if (last.error >= 0) fmt::print("  sine error      {:.3e} (relative, against the exact discrete solution)\n", last.error);
    if (!writer.summary().empty()) fmt::print("  output          {} ({})\n", writer.summary(), cfg.output_dir);
    if (cfg.write_history) fmt::print("  history         {}/history.csv\n", cfg.output_dir);
    fmt::print("checksum: {:016x}\n", checksum);
  }
  return 0;
}

}  // namespace cartex::app
