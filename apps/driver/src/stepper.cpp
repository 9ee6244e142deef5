#include "stepper.hpp"

#include <algorithm>
#include <utility>

#include "cartex/core/error.hpp"
#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/pattern.hpp"

namespace cartex::app {

namespace {

// Stencil-point updates per chunk of the overlapped inner sweep (1 << 19: about 75 000 cells of a
// 7-point or 19 000 of a 27-point stencil, 50-100 us on one core): small enough that the plan's
// progress() runs often while messages are in flight, large enough that a chunk's kernel launch,
// fence and test of the requests stay a small share of it (docs/performance.md, "Overlap": 2^17
// cost 1.17x the blocking step at 128^3 where 2^19 cost 1.02x).
constexpr long kChunkPointUpdates = 1L << 19;

// `runs` in order, cut between runs into chunks of at least `cells` cells (the last may be smaller):
// chunk(first, last) for each, [first, last) iterators into runs.
template <class Chunk>
void for_each_chunk(const std::vector<core::LineRun>& runs, long cells, const Chunk& chunk) {
  auto first = runs.begin();
  long in_chunk = 0;
  for (auto r = runs.begin(); r != runs.end(); ++r) {
    in_chunk += r->length;
    if (in_chunk >= cells || r + 1 == runs.end()) {
      chunk(first, r + 1);
      first = r + 1;
      in_chunk = 0;
    }
  }
}

// The fields of one state, or of two, as one set for a halo plan.
// The state's fields as one set, without a heap allocation per exchange (FieldSet's inline storage).
halo::FieldSet set_of(core::State& u) {
  halo::FieldSet set;
  for (core::Field& f : u) set.add(f);
  return set;
}

halo::FieldSet set_of(core::State& u, core::State& v) {
  halo::FieldSet set;
  for (core::State* s : {&u, &v})
    for (core::Field& f : *s) set.add(f);
  return set;
}

// Runs `call` and adds its wall time to `seconds`.
template <class Call>
void timed(double& seconds, Call&& call) {
  const double t0 = MPI_Wtime();
  call();
  seconds += MPI_Wtime() - t0;
}

}  // namespace

Stepper::Stepper(const Setup& s, int k, const halo::HaloGeometry& geometry, const halo::HaloPattern& pattern, bool overlap_ready,
                 bool overlap, std::unique_ptr<kernels::UpdateOperator> update)
    : k_(k),
      stencil_(core::halo_stencil(s.cfg)),
      geometry_(&geometry),
      pattern_(&pattern),
      overlap_ready_(overlap_ready),
      overlap_(overlap),
      keeps_previous_level_(s.equation->integrator == core::Integrator::kLeapfrog),
      plan_(halo::make_halo_plan(s.cfg.backend, {pattern, s.comm(), &geometry, s.cfg.gpu_aware_mpi, state_fields(s)})),
      op_(std::move(update)),
      boundary_(kernels::make_boundary(s.cfg, physics::exact_solution(*s.equation, s.cfg))),
      first_step_(s.restart ? s.restart->step : 0),
      last_step_(s.cfg.steps),
      pass_end_(first_step_) {
  core::require(overlap_ready || !overlap, "Stepper: overlap without its regions");
  // y ghost rows filled by the pass come before the walls' refresh, which would mirror them first.
  if (!keeps_previous_level_) fill_dims_ = std::min(plan_->fillable_ghost_dims(), boundary_.refreshes() ? 1 : 2);
  // Leapfrog with k > 1: the state and its previous level in one exchange (2N fields).
  if (keeps_previous_level_ && k_ > 1)
    levels_plan_ = halo::make_halo_plan(s.cfg.backend, {pattern, s.comm(), &geometry, s.cfg.gpu_aware_mpi, 2 * state_fields(s)});
  chunk_cells_ = std::max(1L, kChunkPointUpdates / std::max(1, s.cfg.stencil.size()));
  build_cycle(kernels::resolve_tiling(s.cfg.temporal_blocking, s.tile_basis, k_, op_->has_blocked_kernel(), tiling_reason_));
}

bool Stepper::remote_split() const { return plan_->self_complete_at_start() && !boundary_.refreshes(); }

long Stepper::inner_launches() const {
  if (!overlap_ready_) return 0;
  if (overlap_shape_ != OverlapShape::kChunked) return 1;
  long chunks = 0;
  for_each_chunk(remote_split() ? pattern_->remote_inner : pattern_->inner, chunk_cells_, [&](auto, auto) { ++chunks; });
  return chunks;
}

const Stepper::StepSplit& Stepper::step_split() {
  if (step_split_) return *step_split_;
  StepSplit& c = step_split_.emplace();
  // A plan that copies the self blocks inside start leaves only the remote halo in flight.
  const bool remote = remote_split();
  const std::vector<core::LineRun>& inner = remote ? pattern_->remote_inner : pattern_->inner;
  if (overlap_shape_ == OverlapShape::kChunked) {
    for_each_chunk(inner, chunk_cells_, [&](auto first, auto last) {
      c.chunks.push_back(kernels::make_cell_region(pattern_->layout, std::vector<core::LineRun>(first, last)));
    });
  } else {
    c.whole = kernels::make_cell_region(pattern_->layout, inner);
    c.instance = std::make_unique<core::SeparateInstance>();
  }
  c.rim = kernels::make_cell_region(pattern_->layout, remote ? pattern_->remote_rim : pattern_->rim);
  return c;
}

void Stepper::set_overlap_shape(OverlapShape shape) {
  core::require(settled(), "Stepper::set_overlap_shape inside a blocked pass");
  overlap_shape_ = shape;
  step_split_.reset();
}

void Stepper::build_cycle(kernels::TemporalTiling tiling) {
  const core::FieldLayout& layout = pattern_->layout;
  if (cycle_ && cycle_->tiling().tile_y > 0 && tiling.tile_y > 0) {
    kernels::CycleRegions retiled(*cycle_, tiling, boundary_.pass_rows(layout));  // auto's tile walk: no new sort
    cycle_.emplace(std::move(retiled));
  } else {
    cycle_.emplace(layout, stencil_, pattern_->update, tiling, boundary_.pass_rows(layout));
  }
  pass_split_.reset();
  pass_rims_.clear();
  build_pass_split();
}

void Stepper::reshape() {
  shape_ = cycle_shape({k_, overlap_, cycle_->tiling().tile_y > 0, plan_->block_copied_at_start(), boundary_.refreshes(),
                        keeps_previous_level_});
  core::require(shape_.kind != CycleKind::kOverlapPass || pass_split_, "Stepper: an overlapped pass without its split");
}

void Stepper::build_pass_split() {
  const core::FieldLayout& layout = pattern_->layout;
  const kernels::TemporalTiling tiling = cycle_->tiling();
  if (!overlap_) {  // off (auto's trial lost): no regions kept for it
    pass_split_.reset();
    pass_rims_.clear();
    step_split_.reset();
  }
  // A pass writes u from step 2 on: only while an exchange that no longer reads u is in flight (the
  // plan is asked to copy what it sends at start; p2p's whole planes would read u). Built
  // only while the cycles overlap (set-up time: auto tries tilings without overlap first), and not with
  // refreshed walls: its rims run after the pass, so a step's wall ghost cells would be due only then.
  const bool overlapped_pass = overlap_ && k_ > 1 && tiling.tile_y > 0 && !boundary_.refreshes();
  plan_->copy_block_at_start(overlapped_pass);
  if (overlapped_pass && !pass_split_ && plan_->block_copied_at_start()) {
    const halo::CycleSplit split = halo::split_cycle(*geometry_, *pattern_, plan_->self_complete_at_start());
    pass_split_.emplace(*cycle_, split.inner);
    for (const auto& rim : split.rim) pass_rims_.push_back(kernels::make_cell_region(layout, rim));
  }
  reshape();
  // Cycles that overlap step by step run step 1's split every cycle: made here, outside their timing.
  if (overlap_ && shape_.kind != CycleKind::kOverlapPass) step_split();
}

void Stepper::set_tiling(kernels::TemporalTiling tiling, std::string reason) {
  core::require(settled(), "Stepper::set_tiling inside a blocked pass");
  tiling_reason_ = std::move(reason);
  if (tiling.tile_y != cycle_->tiling().tile_y) build_cycle(tiling);
}

void Stepper::set_overlap(bool overlap) {
  core::require(overlap_ready_ || !overlap, "Stepper::set_overlap: built without the overlap's regions");
  overlap_ = overlap;
  build_pass_split();
}

void Stepper::begin_at(long step) {
  filled_state_.reset();  // another stepper may have written the fields since
  first_step_ = step;
  steps_ = 0;
  pass_end_ = step;
}

void Stepper::step(core::State& u, core::State& next) {
  core::RegionScope region("cartex::step");
  const int j = static_cast<int>(steps_ % k_) + 1;
  ++steps_;
  const long now = first_step_ + steps_;  // the step this call computes
  if (now <= pass_end_) return;           // a blocked pass computed it already
  if (j > 1) return shape_.blocked() ? pass(u, next, j, now) : region_step(u, next, j, now);
  ++exchanges_;
  // Overlapped with the previous level: that level first, blocking, on its own. A zero-copy plan
  // reads the cells it sends until finish, and leapfrog's update of the inner cells overwrites the
  // previous level in place, so it cannot be in flight beside them.
  if (shape_.overlapped() && shape_.exchanges_previous_level) timed(exchange_seconds_, [&] { plan_->exchange(set_of(next)); });
  switch (shape_.kind) {
    case CycleKind::kExchangeSweep:
    case CycleKind::kExchangeRegions:
      exchange_u(u, next, now);
      return region_step(u, next, 1, now);
    case CycleKind::kExchangeBlocked:
      exchange_u(u, next, now);
      return pass(u, next, 1, now);
    case CycleKind::kOverlapRegions:
      return overlapped_step(u, next, now);
    case CycleKind::kOverlapBlocked:
      overlapped_step(u, next, now);
      // Steps 2 .. of the cycle blocked after it (plans that read u after start).
      if (k_ > 1 && !read_after(now)) pass(next, u, 2, now + 1);
      return;
    case CycleKind::kOverlapPass:
      return read_after(now) ? overlapped_step(u, next, now) : overlapped_pass(u, next, now);
  }
}

void Stepper::exchange_u(core::State& u, core::State& next, long now) {
  // The previous level (in next) travels with u: one message per neighbour and round for both.
  if (shape_.exchanges_previous_level) {
    timed(exchange_seconds_, [&] { levels_plan_->exchange(set_of(u, next)); });
  } else {
    if (filled_state_ == u[0].view.data()) plan_->expect_filled_ghosts(fill_dims_);
    timed(exchange_seconds_, [&] { plan_->exchange(set_of(u)); });
  }
  filled_state_.reset();
  refresh_walls(u, now - 1);
}

void Stepper::region_step(const core::State& u, core::State& next, int j, long now) {
  filled_state_.reset();
  // A one-step cycle updates exactly the block: the interior sweep is the fastest path for it.
  update(u, next, shape_.kind == CycleKind::kExchangeSweep ? nullptr : &cycle_->cells(j));
  refresh_walls(next, now);
}

void Stepper::exchange(core::State& u) {
  filled_state_.reset();
  plan_->exchange(set_of(u));
  refresh_walls(u, first_step_ + steps_);
}

void Stepper::refresh_walls(core::State& f, long step) const {
  if (!boundary_.refreshes()) return;
  core::PhaseScope phase(core::Phase::kUpdate);
  boundary_.refresh(f, step);
  Kokkos::fence();
}

void Stepper::overlapped_step(core::State& u, core::State& next, long now) {
  // The exchange's visible time: start, every progress() call, finish. Async: the host thread drives
  // the exchange from start to end while the device updates the interior, so all of it is visible
  // and "hidden" (hidden_fraction()) stays near 0; overlap_cost() shows what overlapped there.
  filled_state_.reset();
  const StepSplit& split = step_split();  // made before the clock starts: not the exchange's cost
  const double begin = MPI_Wtime();
  timed(exchange_seconds_, [&] { plan_->start(set_of(u)); });
  if (overlap_shape_ == OverlapShape::kChunked) {
    for (const kernels::CellRegion& chunk : split.chunks) {
      update(u, next, &chunk);  // one kernel launch per chunk, returning when done
      timed(exchange_seconds_, [&] { progress(); });
    }
  } else {
    {
      // On a device only the launch: the kernel's time lies under the phases below and the wait.
      core::PhaseScope phase(core::Phase::kUpdate);
      op_->apply_async(split.instance->exec(), u, next, split.whole);
    }
    timed(exchange_seconds_, [&] { progress_until_done(); });
  }
  timed(exchange_seconds_, [&] { plan_->finish(set_of(u)); });
  // Rewrites the wall ghost cells beside the block with the values the inner cells read (the same
  // bits), and those beside the halo from its new cells.
  refresh_walls(u, now - 1);
  update(u, next, &split.rim);  // its fence is a global one: on a device it waits for the interior too
  if (overlap_shape_ == OverlapShape::kAsync) {
    core::PhaseScope phase(core::Phase::kUpdate);
    op_->wait_async(split.instance->exec());  // next is complete from here on (an update may run it elsewhere)
  }
  refresh_walls(next, now);
  if (pass_split_) return;  // overlap_cost() compares whole overlapped passes then
  overlapped_seconds_ += MPI_Wtime() - begin;
  ++overlapped_units_;
}

void Stepper::overlapped_pass(core::State& u, core::State& next, long now) {
  core::require(!boundary_.refreshes(), "Stepper: a blocked pass with refreshed walls");
  filled_state_.reset();
  const int last = pass_last(1, now);
  const double begin = MPI_Wtime();
  timed(exchange_seconds_, [&] { plan_->start(set_of(u)); });
  {
    core::PhaseScope phase(core::Phase::kUpdate);
    op_->apply_steps(u, next, *pass_split_, 1, last, [&] { timed(exchange_seconds_, [&] { progress(); }); });
    Kokkos::fence();
  }
  timed(exchange_seconds_, [&] { plan_->finish(set_of(u)); });
  // Step t reads the field step t - 1 wrote: u, next, u, ... (the rims in step order; split_cycle).
  for (int t = 1; t <= last; ++t) update(t % 2 == 1 ? u : next, t % 2 == 1 ? next : u, &pass_rims_[t - 1]);
  if (last == k_) {
    overlapped_seconds_ += MPI_Wtime() - begin;
    ++overlapped_units_;
  }
  pass_end_ = now + (last - 1);
  ++passes_;
  pass_steps_ += last;
}

void Stepper::progress() {
  // Its own phase: on TCP and shared memory the MPI library moves the data inside these calls, so
  // that time is exchange time the update did not hide (an unpack it completes nests as unpack).
  core::PhaseScope phase(core::Phase::kHaloTest);
  plan_->progress();
}

void Stepper::progress_until_done() {
  core::PhaseScope phase(core::Phase::kHaloTest);
  while (!plan_->done()) plan_->progress();
}

bool Stepper::read_after(long step) const { return step >= last_step_ || (observed_ && observed_(step)); }

int Stepper::pass_last(int j, long now) const {
  int last = j;
  while (last < k_ && !read_after(now + (last - j))) ++last;
  return last;
}

void Stepper::pass(core::State& a, core::State& b, int j, long now) {
  const int last = pass_last(j, now);
  core::PhaseScope phase(core::Phase::kUpdate);
  std::optional<kernels::PassWalls> walls;
  if (boundary_.refreshes()) walls.emplace(boundary_, a.layout(), now, j, last);
  // At the cycle's end the next exchange can take the periodic ghosts from here (the last step wrote b
  // when it is an even number of steps after step j, else a).
  const bool fill = fill_dims_ > 0 && last == k_;
  const kernels::PeriodicGhosts ghosts = !fill ? kernels::PeriodicGhosts::kAsComputed
                                         : fill_dims_ == 2 ? kernels::PeriodicGhosts::kXY
                                                           : kernels::PeriodicGhosts::kX;
  op_->apply_steps(a, b, *cycle_, j, last, {}, walls ? &*walls : nullptr, ghosts);
  Kokkos::fence();
  filled_state_.reset();
  if (fill) filled_state_ = ((last - j) % 2 == 0 ? b : a)[0].view.data();
  pass_end_ = now + (last - j);
  ++passes_;
  pass_steps_ += last - j + 1;
}

void Stepper::update(const core::State& u, core::State& next, const kernels::CellRegion* cells) const {
  core::PhaseScope phase(core::Phase::kUpdate);
  if (cells)
    op_->apply(u, next, *cells);
  else
    op_->apply(u, next);
  Kokkos::fence();  // ends the phase: the update's time is the kernels' time, not their launch
}

void Stepper::calibrate(core::State& u, core::State& next, bool next_is_scratch) {
  filled_state_.reset();
  constexpr int kRepeats = 5;
  std::vector<double> exchange, step;
  // An overlapped pass is compared with a blocking one (exchange, then the cycle's k steps in one
  // blocked pass), run on copies: a pass writes u too.
  std::optional<core::State> a, b;
  if (pass_split_ && next_is_scratch) {
    a.emplace(std::vector<std::string>(u.size(), "cartex::calibrate_a"), u.layout());
    b.emplace(std::vector<std::string>(u.size(), "cartex::calibrate_b"), u.layout());
    for (std::size_t q = 0; q < u.size(); ++q) Kokkos::deep_copy((*a)[q].view, u[q].view);
  }
  for (int r = 0; r < kRepeats + 1; ++r) {
    const double t0 = MPI_Wtime();
    plan_->exchange(set_of(a ? *a : u));
    const double t1 = MPI_Wtime();
    // Step 1 of a cycle, as the loop runs it without overlap (exchanging is idempotent and next is
    // overwritten by the loop's first step, so the run's state is unchanged).
    if (a) {
      core::PhaseScope phase(core::Phase::kUpdate);
      op_->apply_steps(*a, *b, *cycle_, 1, k_);
      Kokkos::fence();
    } else if (next_is_scratch) {
      update(u, next, k_ == 1 ? nullptr : &cycle_->cells(1));
    }
    if (r == 0) continue;  // warms up
    exchange.push_back(t1 - t0);
    step.push_back(MPI_Wtime() - t0);
  }
  const auto median = [](std::vector<double>& t) {
    std::nth_element(t.begin(), t.begin() + kRepeats / 2, t.end());
    return t[kRepeats / 2];
  };
  blocking_seconds_ = median(exchange);
  blocking_step_seconds_ = next_is_scratch ? median(step) : 0.0;
}

void Stepper::use_blocking_reference(double blocking_exchange, double blocking_unit) {
  blocking_seconds_ = blocking_exchange;
  blocking_step_seconds_ = blocking_unit;
  exchanges_before_overlap_ = exchanges_;
  exchange_seconds_ = overlapped_seconds_ = 0;
  overlapped_units_ = 0;
}

halo::HaloStats Stepper::exchange_stats() const {
  if (!shape_.exchanges_previous_level) return plan_->stats();
  if (!shape_.overlapped()) return levels_plan_->stats();
  halo::HaloStats two = plan_->stats();  // the previous level apart: two exchanges of the state's size
  two.messages *= 2;
  two.bytes *= 2;
  two.rounds *= 2;
  return two;
}

int Stepper::fields_per_exchange() const { return plan_->fields() * (shape_.exchanges_previous_level ? 2 : 1); }

double Stepper::overlap_cost() const {
  if (!overlap_ || exchanges_ == exchanges_before_overlap_ || blocking_step_seconds_ <= 0) return -1.0;
  return overlapped_step_seconds() / blocking_step_seconds_;
}

double Stepper::hidden_fraction() const {
  if (!overlap_ || exchanges_ == exchanges_before_overlap_ || blocking_seconds_ <= 0) return -1.0;
  const double visible = exchange_seconds_ / static_cast<double>(exchanges_ - exchanges_before_overlap_);
  return std::clamp(1.0 - visible / blocking_seconds_, 0.0, 1.0);
}

}  // namespace cartex::app
