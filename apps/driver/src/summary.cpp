#include "summary.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <array>
#include <cmath>

#include "cartex/core/schedule.hpp"
#include "cartex/core/version.hpp"
#include "cartex/core/mpi_check.hpp"
#include "end_files.hpp"
#include "phase_table.hpp"
#include "restart_command.hpp"

namespace cartex::app {

namespace {

// min, avg, max of a per-rank value.
std::array<double, 3> spread(double v, MPI_Comm comm) {
  int size = 1;
  core::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  double mn = 0, mx = 0, sum = 0;
  core::check_mpi(MPI_Allreduce(&v, &mn, 1, MPI_DOUBLE, MPI_MIN, comm), "MPI_Allreduce");
  core::check_mpi(MPI_Allreduce(&v, &mx, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  core::check_mpi(MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, comm), "MPI_Allreduce");
  return {mn, sum / size, mx};
}

// The summary's steps line: which steps this run computed, of how many, and why it began or ended
// where it did.
std::string steps_text(const Setup& s, long first, long last, const std::string& stopped_by) {
  const core::Config& c = s.cfg;
  const std::string from = s.restart ? fmt::format(" (restarted from {} at step {})", s.restart->path, first) : "";
  if (last == first && s.restart)
    return fmt::format("none run: restarted from {} at step {} = run.steps, nothing left to do", s.restart->path, first);
  if (last == first) return "none run: run.steps = 0";
  std::string text = fmt::format("{}..{} of {}, dt {:.6g} (cfl {:.3g}), ", first + 1, last, c.steps, c.dt, c.cfl);
  if (!stopped_by.empty())
    text += fmt::format("t {:.6g} of t_end {:.6g}, stopped by {}", core::step_time(c, last), core::step_time(c, c.steps), stopped_by);
  else
    text += fmt::format("t_end {:.6g}{}", core::step_time(c, last), c.end_time > 0 ? " = run.end_time" : "");
  return text + from;
}

// What each cycle's exchange moves: "1 field (u)", "2 fields (u, v) together", "2 fields (u and its
// previous level) together" (leapfrog, k > 1; two exchanges when the cycles overlap, stepper.hpp).
std::string exchanged_fields_text(const Setup& s, const Stepper& stepper) {
  const auto& fields = s.equation->fields;
  const int n = stepper.fields_per_exchange();
  if (n == static_cast<int>(fields.size())) return fields_text(fields);
  return fmt::format("{} fields ({} and {} previous level) {}", n, fmt::join(fields, ", "), fields.size() == 1 ? "its" : "their",
                     stepper.shape().overlapped() ? "in two exchanges (the previous level apart, overlap)" : "together");
}

}  // namespace

std::string fields_text(const std::vector<std::string>& fields) {
  const std::size_t n = fields.size();
  return fmt::format("{} field{} ({}){}", n, n == 1 ? "" : "s", fmt::join(fields, ", "), n > 1 ? " together" : "");
}

void print_summary(const Setup& s, const AutoStepper& steps, const StopControl& stop, const LoopOutcome& o) {
  const Stepper& stepper = steps.stepper();
  const MPI_Comm comm = s.comm();
  const core::Config& cfg = s.cfg;
  int rank = 0;
  core::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const long steps_run = o.last - o.first;
  const auto share = spread(o.seconds > 0 ? o.phases.halo_seconds() / o.seconds : 0.0, comm);
  const std::string phase_lines = phase_table(o.phases, o.seconds, comm);
  const auto t_total = spread(o.seconds, comm);
  const halo::HaloStats hs = stepper.exchange_stats();
  const auto msgs = spread(static_cast<double>(hs.messages), comm);
  const auto bytes = spread(static_cast<double>(hs.bytes), comm);
  const auto hidden = spread(stepper.hidden_fraction(), comm);
  const auto blocking = spread(stepper.blocking_seconds(), comm);
  const auto cost = spread(stepper.overlap_cost(), comm);
  const auto overlapped_ms = spread(1e3 * stepper.overlapped_step_seconds(), comm);
  const auto blocking_step_ms = spread(1e3 * stepper.blocking_step_seconds(), comm);
  const auto launches = spread(static_cast<double>(stepper.inner_launches()), comm);
  const auto check_ms = spread(1e3 * stop.check_seconds(), comm);
  const std::string auto_lines = steps.report(o.seconds);
  if (rank != 0) return;

  const int dim = cfg.grid.dim;
  const double t = t_total[2];
  const Record& last = o.history.back();
  fmt::print("cartex {} {} (commit {})\n", s.app, core::kVersion, core::kGitCommit);
  fmt::print("  grid            {} cells, {}D, stencil {} ({} kernel), backend {}\n",
             fmt::join(cfg.grid.n.begin(), cfg.grid.n.begin() + dim, "x"), dim, cfg.stencil.name, stepper.kernel_name(),
             stepper.plan().backend());
  if (!stepper.plan().note().empty()) fmt::print("  backend choice  {}\n", stepper.plan().note());
  fmt::print("  mpi buffers     {}\n", s.memory.reason);
  fmt::print("  processes       {} rank{} as {}\n", s.procs.size(), s.procs.size() == 1 ? "" : "s",
             fmt::join(s.procs.dims.begin(), s.procs.dims.begin() + dim, "x"));
  fmt::print("  placement       {}; diagnostics allreduce {}\n", placement_text(*s.placement, dim), cfg.allreduce);
  fmt::print("  hosts           {}\n", s.placement->hosts());
  fmt::print("  kokkos          {}.{}.{}, {}, {} thread(s) per rank\n", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
             KOKKOS_VERSION % 100, Kokkos::DefaultExecutionSpace::name(), Kokkos::DefaultExecutionSpace().concurrency());
  fmt::print("  steps           {}\n", steps_text(s, o.first, o.last, stop.reason()));
  if (steps_run > 0 && t > 0) {
    fmt::print("  time/step       {:.4g} ms\n", 1e3 * t / static_cast<double>(steps_run));
    fmt::print("  MLUP/s          {:.2f}\n", cfg.grid.cells() * static_cast<double>(steps_run) / t / 1e6);
  } else {
    fmt::print("  time/step       - (no steps run)\n");
    fmt::print("  MLUP/s          - (no steps run)\n");
  }
  fmt::print("  exchange share  min {:.1f}%  avg {:.1f}%  max {:.1f}%\n", 100 * share[0], 100 * share[1], 100 * share[2]);
  fmt::print("{}", phase_lines);
  fmt::print("  halo            {} exchange(s) of {}, one every {} step(s); per exchange and rank: messages {:.0f}..{:.0f}, "
             "bytes {:.0f}..{:.0f}, rounds {}\n",
             steps.exchanges(), exchanged_fields_text(s, stepper), stepper.k(), msgs[0], msgs[2], bytes[0], bytes[2], hs.rounds);
  const auto& cycle = stepper.cycle();
  const double per_pass = cycle.tiling().tile_y > 0 ? stepper.steps_per_pass() : 1.0;
  fmt::print("  temporal        {}, {:.3g} step(s) per pass ({}); effective {:.3f} GLUP/s, about {:.1f} B moved per "
             "cell-update (traffic model; redundant ghost updates {:.1f}% of the block's)\n",
             cycle.describe(), per_pass, stepper.tiling_reason(),
             steps_run > 0 && t > 0 ? cfg.grid.cells() * static_cast<double>(steps_run) / t / 1e9 : 0.0,
             cycle.tiling().tile_y > 0 ? cycle.bytes_per_update(static_cast<int>(std::lround(per_pass)))
                                       : cycle.unblocked_bytes_per_update(),
             100 * cycle.redundant_fraction());
  fmt::print("{}", auto_lines);
  if (stepper.overlap()) {
    fmt::print("  overlap         hidden {:.0f}% of a blocking exchange (min {:.0f}%, max {:.0f}% over ranks; blocking {:.3g} ms)\n",
               100 * hidden[1], 100 * hidden[0], 100 * hidden[2], 1e3 * blocking[2]);
    // How the interior ran beside the exchange (overlap_shape.hpp): chunks on the host, one launch on a device.
    if (stepper.overlap_shape() == OverlapShape::kChunked)
      fmt::print("  overlap shape   chunked: the interior in {} launch(es) per step{}, plan progress after each ({} runs on the host)\n",
                 launches[0] == launches[2] ? fmt::format("{:.0f}", launches[0]) : fmt::format("{:.0f}..{:.0f}", launches[0], launches[2]),
                 launches[0] == launches[2] ? "" : " (over ranks)", Kokkos::DefaultExecutionSpace::name());
    else
      fmt::print("  overlap shape   async: the interior in one launch on a {} instance of its own, plan progress until done\n",
                 Kokkos::DefaultExecutionSpace::name());
    // The cost, same run: the overlapped steps (or passes of a whole cycle, with temporal blocking)
    // against blocking ones timed before the loop.
    const int unit = stepper.overlap_unit_steps();
    const std::string what = unit == 1 ? std::string("step") : fmt::format("pass of {} steps", unit);
    if (cost[0] > 0)
      fmt::print("  overlap cost    overlapped {} {:.3g} ms vs blocking {} {:.3g} ms: {:.2f}x (slowest rank; "
                 "blocking ones timed before the loop)\n",
                 what, overlapped_ms[2], what, blocking_step_ms[2], overlapped_ms[2] / blocking_step_ms[2]);
  }
  if (last.fields.size() == 1) {
    const double integral0 = o.history.front().fields[0].integral;
    fmt::print("  {:<15} {:.15e} (start {:.15e}, change {:+.3e})\n", kIntegralLabel, last.fields[0].integral, integral0,
               last.fields[0].integral - integral0);
    fmt::print("  min / max       {:.15e} / {:.15e}\n", last.fields[0].stats.min, last.fields[0].stats.max);
  } else {
    // A system: each field's range and mean over the cells.
    for (std::size_t q = 0; q < last.fields.size(); ++q) {
      const FieldRecord& f = last.fields[q];
      fmt::print("  {:<15} min {:.15e}  max {:.15e}  mean {:.15e}\n", s.equation->fields[q], f.stats.min, f.stats.max,
                 f.stats.sum / static_cast<double>(cfg.grid.cells()));
    }
  }
  if (last.error >= 0) fmt::print("  sine error      {:.3e} (relative, against the exact discrete solution)\n", last.error);
  if (!o.output.empty()) fmt::print("  output          {} ({})\n", o.output, cfg.output_dir);
  if (cfg.write_history) fmt::print("  history         {}/history.csv\n", cfg.output_dir);
  fmt::print("  stop checks     {} allreduce(s), about one per {:g} ms of stepping; {:.3g} ms in them on the slowest rank "
             "(mostly waiting for the others)\n",
             stop.checks(), 1e3 * StopControl::kCheckSeconds, check_ms[2]);
  fmt::print("checksum: {:016x}\n", o.checksum);
  if (!o.stop_checkpoint.empty()) {
    fmt::print("stopped by {} after step {} of {}; checkpoint {}\n", stop.reason(), o.last, cfg.steps, o.stop_checkpoint);
    fmt::print("restart with: {}\n", restart_command(s, o.stop_checkpoint));
    fmt::print("exit code {} (run.stopped_exit_code: stopped early, restart me); the same command is in {}/{}\n",
               cfg.stopped_exit_code, cfg.output_dir, kRestartMarker);
  }
}

}  // namespace cartex::app
