#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "cartex/core/error.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/phase_profile.hpp"
#include "cartex/core/progress.hpp"
#include "cartex/core/schedule.hpp"
#include "cartex/core/timer.hpp"
#include "cartex/core/version.hpp"
#include "cartex/io/output_writer.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/diagnostics.hpp"
#include "cartex/kernels/initial.hpp"
#include "cartex/kernels/linear_update.hpp"
#include "cartex/kernels/update_registry.hpp"

#include "driver.hpp"
#include "history.hpp"
#include "phase_table.hpp"
#include "stepper.hpp"
#include "stop_control.hpp"

namespace cartex::app {

namespace {

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
std::unique_ptr<kernels::UpdateOperator> make_update(const Setup& s) {
  const Config& c = s.cfg;
  if (const kernels::UpdateFactory* make = kernels::find_update(c.stencil.name)) return (*make)(c, s.pattern.layout);
  if (c.equation == Equation::kHeat) return std::make_unique<kernels::LinearUpdate>(c.stencil, s.pattern.layout, kernels::Scheme::kEuler, c.dt * c.alpha);
  return std::make_unique<kernels::LinearUpdate>(c.stencil, s.pattern.layout, kernels::Scheme::kLeapfrog, c.dt * c.dt * c.speed * c.speed);
}

// Wave: the level before the first, u^(-1) = u^0 + dt^2*c^2/2 * L(u^0) (zero initial velocity,
// second order; exact for the sine mode). Exchanges u's halo first.
void start_leapfrog(const Setup& s, Stepper& stepper, Field& u, Field& previous) {
  const Config& c = s.cfg;
  stepper.exchange(u);
  kernels::LinearUpdate(c.stencil, s.pattern.layout, kernels::Scheme::kEuler, 0.5 * c.dt * c.dt * c.speed * c.speed).apply(u, previous);
}

// `word` quoted for a POSIX shell when it holds anything but safe characters.
std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                           "0123456789_./=,:+-@%") == std::string::npos;
  if (safe) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The command that continues this run from `checkpoint`: the same input files and overrides (an input
// that itself came from a checkpoint is not named: the new checkpoint embeds the resolved input).
std::string restart_command(const Setup& s, const std::string& checkpoint) {
  std::string cmd = s.app;
  for (const auto& f : s.input.files)
    if (s.input.texts.count(f) == 0) cmd += " " + shell_quote(f);
  for (const auto& u : s.input.unsets) cmd += " --unset " + shell_quote(u);
  for (const auto& o : s.input.sets) cmd += " --set " + shell_quote(o);
  return cmd + " --restart " + shell_quote(checkpoint);
}

// The summary's steps line: which steps this run computed, of how many, and why it began or ended
// where it did.
std::string steps_text(const Setup& s, long first, long last, const std::string& stopped_by) {
  const Config& c = s.cfg;
  const std::string from = s.restart ? fmt::format(" (restarted from {} at step {})", s.restart->path, first) : "";
  if (last == first && s.restart)
    return fmt::format("none run: restarted from {} at step {} = run.steps, nothing left to do", s.restart->path, first);
  if (last == first) return "none run: run.steps = 0";
  std::string text = fmt::format("{}..{} of {}, dt {:.6g} (cfl {:.3g}), ", first + 1, last, c.steps, c.dt, c.cfl);
  if (!stopped_by.empty())
    text += fmt::format("t {:.6g} of t_end {:.6g}, stopped by {}", step_time(c, last), step_time(c, c.steps), stopped_by);
  else
    text += fmt::format("t_end {:.6g}{}", step_time(c, last), c.end_time > 0 ? " = run.end_time" : "");
  return text + from;
}

}  // namespace

int run(const Setup& s) {
  const MPI_Comm comm = s.comm();
  const kernels::Allreduce reduce = s.placement->allreduce(s.cfg.allreduce);
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
    kernels::fill_initial(u, cfg.grid, cfg.init);
  }
  kernels::fill_dirichlet(u, cfg.grid, cfg.dirichlet);
  kernels::fill_dirichlet(next, cfg.grid, cfg.dirichlet);
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
  const auto reports = [&](long step) { return cfg.progress_every > 0 && (step % cfg.progress_every == 0 || step == cfg.steps); };
  stepper.observe([&](long step) { return reports(step) || writer.writes_at(step); });

  Timer total, exchange, compute;
  const double output_before_loop = writer.stats().seconds;
  StopControl stop(cfg, s.started, comm);
  long last_step = cfg.steps;  // the last step this run computes (earlier when stopped)
  MPI_Barrier(comm);
  reset_phase_totals();  // the phase table covers the loop, not set-up exchanges
  total.start();
  const double t_start = MPI_Wtime();
  for (long step = first + 1; step <= cfg.steps; ++step) {
    stepper.step(u, next);
    std::swap(u, next);
    if (reports(step)) {
      Record r = diagnose(s, u, step, reduce);
      progress.record(step, cfg.steps, r.time, describe(r), MPI_Wtime() - t_start);
      history.push_back(r);
    }
    writer.maybe_write(step, state(), table);
    if (step < cfg.steps && stepper.settled() && stop.should_stop(step, writer.stats().longest_write)) {
      last_step = step;
      break;
    }
  }
  Kokkos::fence();
  total.stop();
  const PhaseTotals phases = phase_totals();
  progress.finish();
  // Output inside the loop is reported on its own line, not as time per step.
  const double t_steps = total.seconds() - (writer.stats().seconds - output_before_loop);
  const long steps_run = last_step - first;
  std::string stop_checkpoint;  // written because a signal or the wall-time limit stopped the run
  if (last_step < cfg.steps) {
    writer.write_checkpoint_now(last_step, state(), table);
    stop_checkpoint = (std::filesystem::path(cfg.output_dir) / io::checkpoint_file_name(last_step)).string();
  }

  const Record last = diagnose(s, u, last_step, reduce);
  if (history.back().step != last_step) history.push_back(last);
  const std::uint64_t checksum = kernels::field_checksum(u, cfg.grid, comm, reduce);
  const auto share = spread(t_steps > 0 ? phases.halo_seconds() / t_steps : 0.0, comm);
  const std::string phase_lines = phase_table(phases, t_steps, comm);
  const auto t_total = spread(t_steps, comm);
  const halo::HaloStats hs = stepper.plan().stats();
  const auto msgs = spread(static_cast<double>(hs.messages), comm);
  const auto bytes = spread(static_cast<double>(hs.bytes), comm);
  const auto hidden = spread(stepper.hidden_fraction(), comm);
  const auto blocking = spread(stepper.blocking_seconds(), comm);
  const auto check_ms = spread(1e3 * stop.check_seconds(), comm);
  if (rank == 0 && cfg.write_history) write_history(cfg.output_dir, history);

  if (rank == 0) {
    const int dim = cfg.grid.dim;
    const double t = t_total[2];
    fmt::print("cartex {} {} (commit {})\n", s.app, kVersion, kGitCommit);
    fmt::print("  grid            {} cells, {}D, stencil {} ({} kernel), backend {}\n",
               fmt::join(cfg.grid.n.begin(), cfg.grid.n.begin() + dim, "x"), dim, cfg.stencil.name, stepper.kernel_name(),
               stepper.plan().backend());
    if (!stepper.plan().note().empty()) fmt::print("  backend choice  {}\n", stepper.plan().note());
    fmt::print("  processes       {} rank{} as {}\n", s.procs.size(), s.procs.size() == 1 ? "" : "s",
               fmt::join(s.procs.dims.begin(), s.procs.dims.begin() + dim, "x"));
    fmt::print("  placement       {}; diagnostics allreduce {}\n", placement_text(*s.placement, dim), cfg.allreduce);
    fmt::print("  kokkos          {}.{}.{}, {}, {} thread(s) per rank\n", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
               KOKKOS_VERSION % 100, Kokkos::DefaultExecutionSpace::name(), Kokkos::DefaultExecutionSpace().concurrency());
    fmt::print("  steps           {}\n", steps_text(s, first, last_step, stop.reason()));
    if (steps_run > 0 && t > 0) {
      fmt::print("  time/step       {:.4g} ms\n", 1e3 * t / static_cast<double>(steps_run));
      fmt::print("  MLUP/s          {:.2f}\n", cfg.grid.cells() * static_cast<double>(steps_run) / t / 1e6);
    } else {
      fmt::print("  time/step       - (no steps run)\n");
      fmt::print("  MLUP/s          - (no steps run)\n");
    }
    fmt::print("  exchange share  min {:.1f}%  avg {:.1f}%  max {:.1f}%\n", 100 * share[0], 100 * share[1], 100 * share[2]);
    fmt::print("{}", phase_lines);
    fmt::print("  halo            {} exchange(s), one every {} step(s); per exchange and rank: messages {:.0f}..{:.0f}, "
               "bytes {:.0f}..{:.0f}, rounds {}\n",
               stepper.exchanges(), cfg.steps_per_exchange, msgs[0], msgs[2], bytes[0], bytes[2], hs.rounds);
    const auto& cycle = stepper.cycle();
    const double per_pass = stepper.steps_per_pass();
    fmt::print("  temporal        {}, {:.3g} step(s) per pass ({}); effective {:.3f} GLUP/s, about {:.1f} B moved per "
               "cell-update (traffic model; redundant ghost updates {:.1f}% of the block's)\n",
               cycle.describe(), per_pass, stepper.tiling_reason(),
               steps_run > 0 && t > 0 ? cfg.grid.cells() * static_cast<double>(steps_run) / t / 1e9 : 0.0,
               cycle.tiling().tile_y > 0 ? cycle.bytes_per_update(static_cast<int>(std::lround(per_pass)))
                                         : cycle.unblocked_bytes_per_update(),
               100 * cycle.redundant_fraction());
    if (cfg.overlap)
      fmt::print("  overlap         hidden {:.0f}% of a blocking exchange (min {:.0f}%, max {:.0f}% over ranks; blocking {:.3g} ms)\n",
                 100 * hidden[1], 100 * hidden[0], 100 * hidden[2], 1e3 * blocking[2]);
    const double integral0 = history.front().integral;
    fmt::print("  {:<15} {:.15e} (start {:.15e}, change {:+.3e})\n", kIntegralLabel, last.integral, integral0,
               last.integral - integral0);
    fmt::print("  min / max       {:.15e} / {:.15e}\n", last.stats.min, last.stats.max);
    if (last.error >= 0) fmt::print("  sine error      {:.3e} (relative, against the exact discrete solution)\n", last.error);
    if (!writer.summary().empty()) fmt::print("  output          {} ({})\n", writer.summary(), cfg.output_dir);
    if (cfg.write_history) fmt::print("  history         {}/history.csv\n", cfg.output_dir);
    fmt::print("  stop checks     {} allreduce(s), about one per {:g} ms of stepping; {:.3g} ms in them on the slowest rank "
               "(mostly waiting for the others)\n",
               stop.checks(), 1e3 * StopControl::kCheckSeconds, check_ms[2]);
    fmt::print("checksum: {:016x}\n", checksum);
    if (!stop_checkpoint.empty()) {
      fmt::print("stopped by {} after step {} of {}; checkpoint {}\n", stop.reason(), last_step, cfg.steps, stop_checkpoint);
      fmt::print("restart with: {}\n", restart_command(s, stop_checkpoint));
    }
  }
  return 0;
}

}  // namespace cartex::app
