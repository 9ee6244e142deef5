// The time loop of a run: initial state, steps, progress, output and checkpoints, stop checks.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <filesystem>
#include <utility>

#include "cartex/core/error.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/core/phase_profile.hpp"
#include "cartex/core/progress.hpp"
#include "cartex/core/timer.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/io/output_writer.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/diagnostics.hpp"
#include "cartex/kernels/initial.hpp"

#include "diagnostics_record.hpp"
#include "driver.hpp"
#include "end_files.hpp"
#include "history_table.hpp"
#include "step_update.hpp"
#include "auto_stepper.hpp"
#include "stop_control.hpp"
#include "summary.hpp"

namespace cartex::app {

int run(const Setup& s) {
  const MPI_Comm comm = s.comm();
  const kernels::Allreduce reduce = s.placement->allreduce(s.cfg.allreduce);
  int rank = 0;
  core::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const core::Config& cfg = s.cfg;
  const core::FieldLayout& layout = s.pattern.layout;

  // u holds the state at step n (the equation's fields); next receives step n + 1 (leapfrog: it holds
  // step n - 1 until then).
  const std::vector<std::string>& fields = s.equation->fields;
  std::vector<std::string> next_names;
  for (const auto& f : fields) next_names.push_back(f + "_next");
  core::State u(fields, layout), next(next_names, layout);
  const std::vector<std::string> names = physics::state_names(*s.equation);  // the checkpoint's datasets
  const bool two_levels = s.equation->integrator == core::Integrator::kLeapfrog;
  if (s.restart) {
    for (std::size_t q = 0; q < u.size(); ++q) io::load_checkpoint_field(*s.restart, names[q], u[q]);
    if (two_levels)
      for (std::size_t q = 0; q < next.size(); ++q) io::load_checkpoint_field(*s.restart, names[u.size() + q], next[q]);
  } else if (s.equation->fill_initial) {
    s.equation->fill_initial(cfg, u);
  } else {
    kernels::fill_initial(u[0], cfg.grid, cfg.init);
  }
  // Every wall ghost cell (the walls refreshed after each step too: the stepper keeps them current).
  const kernels::Boundary boundary = kernels::make_boundary(cfg, physics::exact_solution(*s.equation, cfg));
  const long first = s.restart ? s.restart->step : 0;
  boundary.fill(u, first);
  boundary.fill(next, first);
  AutoStepper stepper(s);
  if (!s.restart) start_levels(s, stepper, u, next);
  if (cfg.overlap == core::OverlapInput::kOn) stepper.calibrate(u, next, !two_levels);

  core::Progress progress(stdout, rank == 0 && cfg.progress_every > 0);
  std::vector<Record> history =
      s.restart ? history_records(s.restart->history, fields) : std::vector<Record>{diagnose(s, u, 0, reduce)};
  io::OutputWriter writer(cfg, s.procs, first, s.restart ? s.restart->path : std::string(), comm);
  const auto table = [&history, &fields] { return history_table(history, fields); };
  // The state a checkpoint must hold to continue bitwise (physics::state_names), then the field
  // coefficients (for field files and the restart's check).
  const auto state = [&]() -> std::vector<io::NamedField> {
    std::vector<io::NamedField> out;
    for (std::size_t q = 0; q < u.size(); ++q) out.push_back({names[q], &u[q]});
    if (two_levels)
      for (std::size_t q = 0; q < next.size(); ++q) out.push_back({names[u.size() + q], &next[q]});
    for (const auto& [key, field] : s.coefficients) out.push_back({key, field.get()});
    return out;
  };
  writer.maybe_write(first, state(), table);
  const auto reports = [&](long step) { return cfg.progress_every > 0 && (step % cfg.progress_every == 0 || step == cfg.steps); };
  stepper.observe([&](long step) { return reports(step) || writer.writes_at(step); });

  core::Timer total;
  const double output_before_loop = writer.stats().seconds;
  StopControl stop(cfg, s.started, comm);
  long last_step = cfg.steps;  // the last step this run computes (earlier when stopped)
  core::check_mpi(MPI_Barrier(comm), "MPI_Barrier");
  core::reset_phase_totals();  // the phase table covers the loop, not set-up exchanges
  total.start();
  const double t_start = MPI_Wtime();
  for (long step = first + 1; step <= cfg.steps; ++step) {
    stepper.step(u, next);
    std::swap(u, next);
    if (reports(step)) {
      Record r = diagnose(s, u, step, reduce);
      progress.record(step, cfg.steps, r.time, describe(s, r), MPI_Wtime() - t_start);
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
  const core::PhaseTotals phases = core::phase_totals();
  progress.finish();
  // Output inside the loop is reported on its own line, not as time per step.
  const double t_steps = total.seconds() - (writer.stats().seconds - output_before_loop);
  std::string stop_checkpoint;  // written because a signal or the wall-time limit stopped the run
  if (last_step < cfg.steps) {
    writer.write_checkpoint_now(last_step, state(), table);
    stop_checkpoint = (std::filesystem::path(cfg.output_dir) / io::checkpoint_file_name(last_step)).string();
  }

  LoopOutcome outcome{first, last_step, t_steps, phases, std::move(history), 0, writer.summary(), stop_checkpoint};
  const Record last = diagnose(s, u, last_step, reduce);
  if (outcome.history.back().step != last_step) outcome.history.push_back(last);
  outcome.checksum = kernels::state_checksum(u, cfg.grid, comm, reduce);
  // A file that cannot be written now is reported after the summary of what ran, and fails the run.
  std::vector<std::string> problems;
  if (rank == 0) problems = write_end_files(s, outcome.history, stop_checkpoint);
  int failed = problems.empty() ? 0 : 1;
  if (MPI_Bcast(&failed, 1, MPI_INT, 0, comm) != MPI_SUCCESS) throw core::Error("MPI_Bcast failed after the time loop");
  print_summary(s, stepper, stop, outcome);
  for (const auto& p : problems) std::fprintf(stderr, "rank %d: error: %s\n", rank, p.c_str());
  if (failed) return core::kExitFailure;
  return stop_checkpoint.empty() ? core::kExitOk : static_cast<int>(cfg.stopped_exit_code);
}

}  // namespace cartex::app
