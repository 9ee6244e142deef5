#pragma once
// Wall-clock timers for the run summary: each named phase accumulates seconds and a call count.
#include <mpi.h>

namespace cartex::core {

// Accumulates time spent between start() and stop().
class Timer {
 public:
  void start() { t0_ = MPI_Wtime(); }
  void stop() {
    total_ += MPI_Wtime() - t0_;
    ++count_;
  }
  double seconds() const { return total_; }
  long count() const { return count_; }

 private:
  double t0_ = 0, total_ = 0;
  long count_ = 0;
};

// Stops a running Timer when the scope ends.
class ScopedTimer {
 public:
  explicit ScopedTimer(Timer& t) : t_(t) { t_.start(); }
  ~ScopedTimer() { t_.stop(); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  Timer& t_;
};

}  // namespace cartex::core
