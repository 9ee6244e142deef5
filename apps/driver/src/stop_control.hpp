#pragma once
// Stopping a run early, the same way on every rank: on SIGTERM or SIGUSR1 (what batch systems send
// before a job's end) to any rank, or when run.wall_time_limit would be reached before the next
// check. The signal handler only sets a flag; a check is one MPI_Allreduce of three doubles, made
// about every kCheckSeconds of stepping (the interval in steps is agreed at each check from the
// slowest rank's step time), so its cost stays far below 1% of a run (docs/output.md).
#include <mpi.h>

#include <csignal>
#include <string>

#include "cartex/core/config.hpp"

namespace cartex::app {

// Installs the SIGTERM/SIGUSR1 handlers for its lifetime and decides when the run stops.
class StopControl {
 public:
  // Wall-clock seconds of stepping between two checks (at least one step apart).
  static constexpr double kCheckSeconds = 0.05;

  // `started`: MPI_Wtime() at the start of the set-up, where run.wall_time_limit counts from.
  StopControl(const core::Config& cfg, double started, MPI_Comm comm);
  ~StopControl();
  StopControl(const StopControl&) = delete;
  StopControl& operator=(const StopControl&) = delete;

  // Call after every step with the longest output write so far (seconds); collective when a check
  // is due. True (on every rank alike) if the run must stop after `step`.
  bool should_stop(long step, double longest_write);

  // Why the run stopped: "SIGTERM", "SIGUSR1" or "the wall-time limit"; empty if it did not.
  std::string reason() const;
  // Checks made and the wall time they took on this rank (their cost).
  long checks() const { return checks_; }
  double check_seconds() const { return check_seconds_; }

 private:
  const core::Config& cfg_;
  double started_;
  MPI_Comm comm_;
  struct sigaction old_term_ {}, old_usr1_ {};
  long next_check_ = 0;        // step of the next check (0: the first step of the loop)
  long last_check_step_ = -1;  // step of the last check (-1: none yet)
  double last_check_time_ = 0;
  int signal_ = 0;             // the signal that stopped the run (the largest number if several)
  bool wall_ = false;          // the wall-time limit stopped it
  long checks_ = 0;
  double check_seconds_ = 0;
};

}  // namespace cartex::app
