#pragma once
// Advances an app's field one time step at a time: a halo exchange every k = halo.steps_per_exchange
// steps, then the stencil update over the cells that step needs (deep halos, EuroMPI'15 section 2:
// step j of a cycle updates B + S^(k-j), redundantly computing ghost cells that later steps read).
// Leapfrog (wave) with k > 1 reads the previous level on those cells too: a cycle exchanges it first
// (blocking), then u as below.
//
//   cycle of k = 3:  exchange | update B+S^2 | update B+S | update B | exchange | ...
//   with overlap:    start; update inner (reads only B) chunk by chunk, plan progress after each
//                    chunk; finish; update rim; then as above
//   ... on a device: start; launch inner as one kernel on its own execution space instance; plan
//                    progress until done; finish; update rim; wait for inner (overlap_shape.hpp)
//
// Temporal blocking (halo.temporal_blocking, kernels/cycle_regions.hpp): the steps of a cycle after
// the exchange run in one pass over memory, up to the next step whose state the loop reads (observe())
// or the run's last step; the calls for the steps inside a pass only count. The fields hold a
// consistent state only when settled(). With overlap too, a pass that starts a cycle runs while the
// exchange is in flight (halo::split_cycle), if the plan copied its block at start (p2p,
// p2p_persistent: the pass writes u from step 2 on); with the others step 1 overlaps as above and
// steps 2.. are blocked after it:
//
//   start; inner steps 1..n as one blocked pass, plan progress between its tiles; finish;
//   rim step 1, rim step 2, ..., rim step n (thin shells next to the faces in flight, one by one)
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
// pass fills them between its steps itself (kernels::PassWalls); with overlap, step 1 of a cycle then
// overlaps alone and steps 2.. run as a blocked pass after it (no overlapped pass: its rims run after
// the pass, when the walls of the earlier steps would be due already).
#include <mpi.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cartex/halo/backends.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/update_operator.hpp"
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
  long inner_launches() const {
    if (!overlap_ready_) return 0;
    return overlap_shape_ == OverlapShape::kChunked ? static_cast<long>(inner_chunks_.size()) : 1;
  }
  // This stepper's next step() is step `step` + 1 of the run and starts a cycle (auto switches to it).
  void begin_at(long step);
  int k() const { return k_; }
  bool overlap() const { return overlap_; }

  // Computes `next` from `u` (exchanging u's halo first when a cycle starts); the caller swaps. A
  // Kokkos profiling region "cartex::step" holds the step's update and halo phases.
  void step(core::Field& u, core::Field& next);
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
  void exchange(core::Field& u);
  // With overlap: times blocking steps before the loop (an exchange of u, then the update of a cycle's
  // first step into next), the reference for hidden_fraction() and overlap_cost(); the first of them
  // warms up. `next_is_scratch` false (leapfrog: next holds the previous level): only the exchanges
  // are timed. Collective.
  void calibrate(core::Field& u, core::Field& next, bool next_is_scratch);

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
  // Fields each exchange moves: 2 for leapfrog with k > 1 (u and the previous level), else 1
  // (HaloPlan::stats() counts one field).
  int fields_per_exchange() const { return previous_level_ ? 2 : 1; }
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
  void update(const core::Field& u, core::Field& next, const kernels::CellRegion* cells) const;
  // Step 1 with overlap: start, the inner chunks with progress between them (or the inner cells as
  // one launch, then progress until done), finish, the rim.
  void overlapped_step(core::Field& u, core::Field& next, long now);
  // The refreshed walls' ghost cells of `f`, which holds the state of `step` (kernels/boundary.hpp).
  void refresh_walls(core::Field& f, long step) const;
  // Whether step 1's overlap split is the one against the remote halo only (a plan that copies its
  // self blocks inside start). Not with refreshed walls: their ghost cells beside a self-copied halo
  // are refreshed after finish, so the cells reading them stay in the rim.
  bool remote_split() const;
  // Builds the inner regions of overlap_shape_ (chunks, or one region and the instance it runs on).
  void build_inner();
  // Steps 1 .. of a cycle from step `now` on with overlap and temporal blocking: start, the inner
  // pass with progress between its tiles, finish, the rims step by step.
  void overlapped_pass(core::Field& u, core::Field& next, long now);
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
  void pass(core::Field& a, core::Field& b, int j, long now);

  // Builds cycle_ (and pass_split_) for `tiling`.
  void build_cycle(kernels::TemporalTiling tiling);
  // Builds pass_split_ when the cycles overlap and a pass can run while the exchange is in flight.
  void build_pass_split();

  int k_;
  core::Stencil stencil_;  // the regions' stencil (core::halo_stencil)
  const halo::HaloGeometry* geometry_;
  const halo::HaloPattern* pattern_;
  bool overlap_ready_;
  bool overlap_;
  OverlapShape overlap_shape_ = default_overlap_shape();
  // Leapfrog with k > 1: step 1 of a cycle also reads the previous level on the ghost cells it
  // updates, so a cycle starts with an exchange of that level too (next holds it then).
  bool previous_level_;
  std::unique_ptr<halo::HaloPlan> plan_;
  std::unique_ptr<kernels::UpdateOperator> op_;
  kernels::Boundary boundary_;
  std::string tiling_reason_;
  std::optional<kernels::CycleRegions> cycle_;  // step j of a cycle: cycle_->cells(j)
  std::vector<kernels::CellRegion> inner_chunks_;  // kChunked: the inner region in chunks of whole lines
  kernels::CellRegion inner_;                      // kAsync: the inner region
  std::unique_ptr<core::SeparateInstance> inner_instance_;  // kAsync: where inner_ runs
  kernels::CellRegion rim_;
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
