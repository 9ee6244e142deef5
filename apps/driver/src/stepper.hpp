#pragma once
// Advances an app's field one time step at a time: a halo exchange every k = halo.steps_per_exchange
// steps, then the stencil update over the cells that step needs (deep halos, EuroMPI'15 section 2:
// step j of a cycle updates B + S^(k-j), redundantly computing ghost cells that later steps read).
// How a cycle runs — exchange or overlap (start, inner cells with progress, finish, rim), the steps
// one by one or in one blocked pass over memory (halo.temporal_blocking, kernels/cycle_regions.hpp),
// leapfrog's previous level — is one of the named shapes of cycle_shape.hpp; step() dispatches on it.
// The fields hold a consistent state only when settled(): the calls for steps inside a pass only count.
//
// Walls whose ghost cells depend on the interior or on time (Neumann, Robin, Dirichlet exact:
// kernels/boundary.hpp) are refreshed in the field a step wrote, after every step, and in u after
// every exchange (the ghost cells beside the neighbours' halo read it):
//
//   exchange | refresh u | update | refresh next        overlap: start | inner | finish | refresh u |
//                                                                 rim | refresh next
//
// The refresh after a step reads only cells that step wrote or the block's own: the inner cells of an
// overlapped step read wall ghost cells beside the block only, which it made current (so with such
// walls step 1 splits against the whole halo, self-copied blocks included: remote_split()). A blocked
// pass fills them between its steps itself (kernels::PassWalls).
#include <mpi.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cartex/halo/backends.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/update_operator.hpp"
#include "cycle_shape.hpp"
#include "driver.hpp"
#include "overlap_shape.hpp"

namespace cartex::app {

// Owns the halo plan and the update of one k and applies the k-step cycle. halo.steps_per_exchange,
// halo.temporal_blocking and comm.overlap `auto` switch between steppers, tilings and overlap at the
// end of a cycle (auto_stepper.hpp).
class Stepper {
 public:
  // Builds the plan (collective) and the update regions of k steps per exchange with `geometry` and
  // `pattern` (kept: the set-up's own, or auto's for another k; laid out as the run's fields);
  // `update` is built for pattern.layout. With `overlap_ready` the overlap's regions are built too
  // (comm.overlap true or auto); `overlap` says whether the cycles overlap from the start.
  Stepper(const Setup& s, int k, const halo::HaloGeometry& geometry, const halo::HaloPattern& pattern, bool overlap_ready, bool overlap,
          std::unique_ptr<kernels::UpdateOperator> update);

  // At the end of a cycle (settled()): the cycles from now on are tiled by `tiling` (the reason for
  // the summary), or overlap or not (only when built overlap_ready).
  void set_tiling(kernels::TemporalTiling tiling, std::string reason);
  void set_overlap(bool overlap);
  // How overlapped steps run the interior (overlap_shape.hpp); default_overlap_shape() unless set.
  // Tests set kAsync on the host (it runs synchronously there, bitwise the same as kChunked).
  void set_overlap_shape(OverlapShape shape);
  OverlapShape overlap_shape() const { return overlap_shape_; }
  // Kernel launches of an overlapped step's interior: the chunks, or 1 (0 without the overlap's regions).
  long inner_launches() const;
  // This stepper's next step() is step `step` + 1 of the run and starts a cycle (auto switches to it).
  void begin_at(long step);
  int k() const { return k_; }
  bool overlap() const { return overlap_; }

  // Computes `next` from `u` (exchanging u's halo first when a cycle starts); the caller swaps. A
  // Kokkos profiling region "cartex::step" holds the step's update and halo phases.
  void step(core::State& u, core::State& next);
  // The loop reads the fields after the steps for which `observed(step)` is true (progress, output):
  // a blocked pass ends there. Without it, passes end at the cycle's end or the run's last step.
  void observe(std::function<bool(long step)> observed) { observed_ = std::move(observed); }
  // True when the fields hold the state of the last step called (no blocked pass reaches beyond it).
  bool settled() const { return pass_end_ <= first_step_ + steps_; }
  // The cycle's tiling ("off" or the tiles) and why it was chosen, for --dry-run and the summary.
  const kernels::CycleRegions& cycle() const { return *cycle_; }
  const std::string& tiling_reason() const { return tiling_reason_; }
  // The mean number of steps per pass over memory (1 when not blocked).
  double steps_per_pass() const { return passes_ > 0 ? static_cast<double>(pass_steps_) / static_cast<double>(passes_) : 1.0; }
  // A blocking exchange of u's halo outside the cycle (start-up of multi-level schemes), then the
  // refreshed walls' ghost cells of u (holding the state of the last step called).
  void exchange(core::State& u);
  // With overlap: times blocking steps before the loop (an exchange of u, then the update of a cycle's
  // first step into next), the reference for hidden_fraction() and overlap_cost(); the first of them
  // warms up. `next_is_scratch` false (leapfrog: next holds the previous level): only the exchanges
  // are timed. Collective.
  void calibrate(core::State& u, core::State& next, bool next_is_scratch);

  // Overlap picked by measurement (auto_stepper.hpp): the blocking references of hidden_fraction() and
  // overlap_cost() are this run's own blocking cycles, calibrate()'s in effect without its cost:
  // `blocking_exchange` seconds per exchange and `blocking_unit` seconds per overlap_unit_steps()
  // steps. The overlap statistics count from here on.
  void use_blocking_reference(double blocking_exchange, double blocking_unit);

  const halo::HaloPlan& plan() const { return *plan_; }
  std::string kernel_name() const { return op_->kernel_name(); }
  // Seconds the host thread spent in the exchange with overlap (start, progress, finish).
  double exchange_seconds() const { return exchange_seconds_; }
  long exchanges() const { return exchanges_; }
  // Fields each cycle's exchange moves: the state's, twice that for leapfrog with k > 1 (the state
  // and its previous level: in one exchange, or two when the cycles overlap).
  int fields_per_exchange() const;
  // What the exchange of a cycle costs this rank, all of those fields together.
  halo::HaloStats exchange_stats() const;
  // The shape of the cycles from here on (cycle_shape.hpp).
  const CycleShape& shape() const { return shape_; }
  // Overlap: share of a blocking exchange's time hidden behind the interior update (0 .. 1);
  // negative without overlap. In the async shape the host thread drives the exchange while the
  // device runs the interior, so the visible time is the whole exchange (start, the progress loop,
  // finish): hidden is then only how much shorter the exchange was than a blocking one (near 0);
  // what overlaps there is the interior, hidden behind the exchange: overlap_cost() shows it.
  double hidden_fraction() const;
  // Blocking exchange time per exchange measured by calibrate().
  double blocking_seconds() const { return blocking_seconds_; }
  // Overlap's cost: the mean overlapped unit (start, inner chunks or inner pass with progress,
  // finish, rim) over calibrate()'s blocking one (exchange, then the same update); negative when
  // either was not measured.
  double overlap_cost() const;
  // Steps in the unit overlap_cost() compares: 1, or k when the cycle's steps run in one overlapped
  // pass (overlap with temporal blocking).
  int overlap_unit_steps() const { return pass_split_ ? k_ : 1; }
  // calibrate()'s blocking unit time (0 when not measured).
  double blocking_step_seconds() const { return blocking_step_seconds_; }
  // The mean time of an overlapped unit (0 without overlap).
  double overlapped_step_seconds() const {
    return overlapped_units_ > 0 ? overlapped_seconds_ / static_cast<double>(overlapped_units_) : 0.0;
  }

 private:
  // The update phase: next from u over `cells` (nullptr: the interior sweep), then a fence.
  void update(const core::State& u, core::State& next, const kernels::CellRegion* cells) const;
  // Step 1 with overlap: start, the inner chunks with progress between them (or the inner cells as
  // one launch, then progress until done), finish, the rim.
  void overlapped_step(core::State& u, core::State& next, long now);
  // The refreshed walls' ghost cells of `f`, which holds the state of `step` (kernels/boundary.hpp).
  void refresh_walls(core::State& f, long step) const;
  // Whether step 1's overlap split is the one against the remote halo only (a plan that copies its
  // self blocks inside start). Not with refreshed walls: their ghost cells beside a self-copied halo
  // are refreshed after finish, so the cells reading them stay in the rim.
  bool remote_split() const;
  // Step 1 split for overlapped_step (the pattern's inner and rim, or remote_inner and remote_rim with
  // remote_split()), the inner cells as overlap_shape_ runs them. Made on first use: a cycle that
  // overlaps in blocked passes needs it only for the steps read after it (issue 40).
  struct StepSplit {
    std::vector<kernels::CellRegion> chunks;           // kChunked: the inner cells in chunks of whole lines
    kernels::CellRegion whole;                         // kAsync: all inner cells
    std::unique_ptr<core::SeparateInstance> instance;  // kAsync: where `whole` runs
    kernels::CellRegion rim;
  };
  const StepSplit& step_split();
  // Steps 1 .. of a cycle from step `now` on with overlap and temporal blocking: start, the inner
  // pass with progress between its tiles, finish, the rims step by step.
  void overlapped_pass(core::State& u, core::State& next, long now);
  // The last step of a cycle a pass from step j (at step `now`) runs: the cycle's end, or the first
  // step the loop reads before it.
  int pass_last(int j, long now) const;
  // The plan's progress() between chunks or tiles, timed as the phase "halo test".
  void progress();
  // progress() until the plan is done, as one phase "halo test".
  void progress_until_done();
  // True if the loop reads the fields after `step` (or the run ends there): a pass ends at it.
  bool read_after(long step) const;
  // Steps j .. of the cycle from step `now` on in one blocked pass: a holds step now - 1.
  void pass(core::State& a, core::State& b, int j, long now);

  // Builds cycle_ (and pass_split_) for `tiling`.
  void build_cycle(kernels::TemporalTiling tiling);
  // Builds pass_split_ when the cycles overlap and a pass can run while the exchange is in flight,
  // then the shape.
  void build_pass_split();
  // shape_ from the settings in effect.
  void reshape();
  // Step 1's exchange of u (with the previous level in next when the shape says so) without overlap,
  // then the refreshed walls of u (holding step now - 1). Tells the plan when a pass filled u's x
  // ghosts (x_filled_state_).
  void exchange_u(core::State& u, core::State& next, long now);
  // Step j (at step `now`) over its deep-halo region (the interior sweep in exchange_sweep), then the
  // refreshed walls of next.
  void region_step(const core::State& u, core::State& next, int j, long now);

  int k_;
  core::Stencil stencil_;  // the regions' stencil (core::halo_stencil)
  const halo::HaloGeometry* geometry_;
  const halo::HaloPattern* pattern_;
  bool overlap_ready_;
  bool overlap_;
  OverlapShape overlap_shape_ = default_overlap_shape();
  // Leapfrog: with k > 1 step 1 of a cycle also reads the previous level on the ghost cells it
  // updates, so a cycle starts with an exchange of that level too (next holds it then).
  bool keeps_previous_level_;
  CycleShape shape_;
  std::unique_ptr<halo::HaloPlan> plan_;         // the state's fields
  std::unique_ptr<halo::HaloPlan> levels_plan_;  // leapfrog with k > 1: the state and its previous level
  // x (and y) periodic on one process and a plan that skips the ghosts a caller filled (not with the
  // previous level; y not with refreshed walls): a pass that ends a cycle fills them
  // (kernels::PeriodicGhosts::kX, kXY), and the next exchange of that state says so
  // (HaloPlan::expect_filled_ghosts), skipping its sweeps over them (issue 40). 0: none.
  int fill_dims_ = 0;
  // The state whose ghosts such a pass filled (its first field's data), until this stepper
  // exchanges, updates otherwise, calibrates, or is switched to: none then.
  std::optional<const double*> filled_state_;
  std::unique_ptr<kernels::UpdateOperator> op_;
  kernels::Boundary boundary_;
  std::string tiling_reason_;
  std::optional<kernels::CycleRegions> cycle_;  // step j of a cycle: cycle_->cells(j)
  std::optional<StepSplit> step_split_;  // step_split(): made on first use
  long chunk_cells_ = 0;  // cells per inner chunk
  // Overlap with temporal blocking: the cycle's steps split around the faces in flight (split_cycle).
  std::optional<kernels::CycleRegions> pass_split_;  // inner steps 1 .. k, tiled as cycle_
  std::vector<kernels::CellRegion> pass_rims_;      // pass_rims_[j - 1]: rim of step j
  long first_step_ = 0, last_step_ = 0;  // the run's steps: first_step_ + 1 .. last_step_
  std::function<bool(long)> observed_;
  long pass_end_ = 0;  // the last step a blocked pass computed
  long passes_ = 0, pass_steps_ = 0;
  long steps_ = 0, exchanges_ = 0;
  long exchanges_before_overlap_ = 0;  // exchanges before use_blocking_reference(): not in the overlap statistics
  double exchange_seconds_ = 0, blocking_seconds_ = 0;
  double overlapped_seconds_ = 0, blocking_step_seconds_ = 0;
  long overlapped_units_ = 0;
};

}  // namespace cartex::app
