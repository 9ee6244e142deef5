#pragma once
// Advances an app's field one time step at a time: a halo exchange every k = halo.steps_per_exchange
// steps, then the stencil update over the cells that step needs (deep halos, EuroMPI'15 section 2:
// step j of a cycle updates B + S^(k-j), redundantly computing ghost cells that later steps read).
//
//   cycle of k = 3:  exchange | update B+S^2 | update B+S | update B | exchange | ...
//   with overlap:    start; update inner (reads only B); finish; update rim; then as above
#include <mpi.h>

#include <memory>
#include <vector>

#include "cartex/halo/halo_plan.hpp"
#include "cartex/kernels/update_operator.hpp"
#include "driver.hpp"

namespace cartex::app {

// Owns the halo plan and the update of a run and applies the k-step cycle.
class Stepper {
 public:
  // Builds the plan (collective) and the update regions; `update` is built for s.pattern.layout.
  Stepper(const Setup& s, std::unique_ptr<kernels::UpdateOperator> update);

  // Computes `next` from `u` (exchanging u's halo first when a cycle starts); the caller swaps. A
  // Kokkos profiling region "cartex::step" holds the step's update and halo phases.
  void step(Field& u, Field& next);
  // A blocking exchange of u's halo outside the cycle (start-up of multi-level schemes).
  void exchange(Field& u) { plan_->exchange(u); }
  // With overlap: times blocking exchanges of u, the reference for hidden_fraction(). Collective.
  void calibrate(Field& u);

  const HaloPlan& plan() const { return *plan_; }
  std::string kernel_name() const { return op_->kernel_name(); }
  // Seconds spent in the exchange that the update did not hide (start + finish).
  double exchange_seconds() const { return exchange_seconds_; }
  long exchanges() const { return exchanges_; }
  // Overlap: share of a blocking exchange's time hidden behind the interior update (0 .. 1);
  // negative without overlap.
  double hidden_fraction() const;
  // Blocking exchange time per exchange measured by calibrate().
  double blocking_seconds() const { return blocking_seconds_; }

 private:
  // The update phase: next from u over `cells` (nullptr: the interior sweep), then a fence.
  void update(const Field& u, Field& next, const kernels::CellRegion* cells) const;

  int k_;
  bool overlap_;
  std::unique_ptr<HaloPlan> plan_;
  std::unique_ptr<kernels::UpdateOperator> op_;
  std::vector<kernels::CellRegion> update_;  // step j of a cycle: update_[j - 1]
  kernels::CellRegion inner_, rim_;
  long steps_ = 0, exchanges_ = 0;
  double exchange_seconds_ = 0, blocking_seconds_ = 0;
};

}  // namespace cartex::app
