#include "stop_control.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cartex/core/error.hpp"

namespace cartex::app {

namespace {

// The last stop signal received (0: none). Only the handler writes it.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int signo) { g_stop_signal = signo; }

struct sigaction install(int signo) {
  struct sigaction act {}, old {};
  act.sa_handler = on_stop_signal;
  sigemptyset(&act.sa_mask);
  act.sa_flags = SA_RESTART;  // MPI and I/O calls in progress carry on; the loop checks the flag
  core::require(sigaction(signo, &act, &old) == 0, fmt::format("cannot install a handler for signal {}", signo));
  return old;
}

}  // namespace

StopControl::StopControl(const core::Config& cfg, double started, MPI_Comm comm) : cfg_(cfg), started_(started), comm_(comm) {
  g_stop_signal = 0;
  old_term_ = install(SIGTERM);
  old_usr1_ = install(SIGUSR1);
  last_check_time_ = MPI_Wtime();
}

StopControl::~StopControl() {
  sigaction(SIGTERM, &old_term_, nullptr);
  sigaction(SIGUSR1, &old_usr1_, nullptr);
}

bool StopControl::should_stop(long step, double longest_write) {
  if (last_check_step_ < 0) last_check_step_ = step - 1;  // the first call: the loop's first step
  if (step < next_check_) return false;
  const double now = MPI_Wtime();
  const double per_step = (now - last_check_time_) / static_cast<double>(step - last_check_step_);
  // {signal, wall-time flag, seconds per step}, the maximum over ranks: any rank's signal stops all,
  // and the slowest rank sets the pace of the checks.
  double mine[3] = {static_cast<double>(g_stop_signal), 0.0, per_step}, all[3] = {0, 0, 0};
  if (cfg_.wall_time_limit > 0) {
    // Stop now unless the steps up to the next check (kCheckSeconds, or one step if longer) and a
    // checkpoint as long as the longest write so far fit in the limit minus the margin.
    const double needed = (now - started_) + std::max(kCheckSeconds, per_step) + longest_write + cfg_.wall_time_margin;
    mine[1] = needed >= cfg_.wall_time_limit ? 1.0 : 0.0;
  }
  const double t0 = MPI_Wtime();
  if (MPI_Allreduce(mine, all, 3, MPI_DOUBLE, MPI_MAX, comm_) != MPI_SUCCESS)
    throw core::Error("MPI_Allreduce failed in the stop check");
  check_seconds_ += MPI_Wtime() - t0;
  ++checks_;
  // Every rank computes the same next check from the same reduced step time.
  next_check_ = step + std::max(1L, static_cast<long>(kCheckSeconds / std::max(all[2], 1e-9)));
  last_check_step_ = step;
  last_check_time_ = MPI_Wtime();
  signal_ = static_cast<int>(all[0]);
  wall_ = all[1] > 0;
  return signal_ != 0 || wall_;
}

std::string StopControl::reason() const {
  if (signal_ == SIGTERM) return "SIGTERM";
  if (signal_ == SIGUSR1) return "SIGUSR1";
  if (signal_ != 0) return fmt::format("signal {}", signal_);
  if (wall_) return fmt::format("the wall-time limit (run.wall_time_limit = {:g} s)", cfg_.wall_time_limit);
  return "";
}

}  // namespace cartex::app
