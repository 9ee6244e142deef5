#include "auto_stepper.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/halo/pattern.hpp"
#include "step_update.hpp"

namespace cartex::app {

double agreed_seconds(double seconds, MPI_Comm comm) {
  double slowest = 0;
  if (MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS)
    throw core::Error("MPI_Allreduce failed while agreeing on a measured auto choice");
  return slowest;
}

AutoStepper::Phase AutoStepper::next_phase(Phase p) {
  switch (p) {
    case Phase::kSteps: return Phase::kTiles;
    case Phase::kTiles: return Phase::kOverlap;
    case Phase::kOverlap: return Phase::kDone;
    case Phase::kDone: return Phase::kDone;
  }
  return Phase::kDone;
}

const char* AutoStepper::key_of(Phase p) {
  switch (p) {
    case Phase::kSteps: return "halo.steps_per_exchange";
    case Phase::kTiles: return "halo.temporal_blocking";
    case Phase::kOverlap: return "comm.overlap";
    case Phase::kDone: break;
  }
  throw core::Error("internal: AutoStepper::key_of(kDone)");
}

AutoStepper::AutoStepper(const Setup& s)
    : s_(s),
      now_(s.restart ? s.restart->step : 0),
      budget_steps_(std::max(0L, s.cfg.steps - now_) / 4),
      try_all_(s.auto_try_all) {
  k_ = s.k;
  overlap_ = s.cfg.overlap == core::OverlapInput::kOn;
  const double t0 = MPI_Wtime();
  current_ = &stepper_for(k_);
  build_seconds_per_cell_ = (s.pattern_seconds + MPI_Wtime() - t0) / std::max(1.0, halo_cells(k_));
}

Stepper& AutoStepper::stepper_for(int k) {
  if (auto it = for_k_.find(k); it != for_k_.end()) return *it->second.stepper;
  const double t0 = MPI_Wtime();
  ForK f;
  const halo::HaloGeometry* geometry = &*s_.geometry;
  const halo::HaloPattern* pattern = &s_.pattern;
  if (k != s_.k) {
    int rank = 0;
    core::check_mpi(MPI_Comm_rank(s_.comm(), &rank), "MPI_Comm_rank");
    // A shallower k reads the set-up's walk tables; a deeper one walks its own.
    f.geometry = k < s_.k ? std::make_unique<halo::HaloGeometry>(*s_.geometry, k)
                          : std::make_unique<halo::HaloGeometry>(s_.decomp, core::halo_stencil(s_.cfg), k);
    f.pattern = std::make_unique<halo::HaloPattern>(halo::make_halo_pattern(*f.geometry, rank, s_.pattern.layout.halo));
    geometry = f.geometry.get();
    pattern = f.pattern.get();
  }
  const bool ready = s_.cfg.overlap != core::OverlapInput::kOff;
  f.stepper = std::make_unique<Stepper>(s_, k, *geometry, *pattern, ready, s_.cfg.overlap == core::OverlapInput::kOn, make_update(s_));
  if (observed_) f.stepper->observe(observed_);
  Stepper& st = *f.stepper;
  for_k_.emplace(k, std::move(f));
  if (current_) overhead_seconds_ += MPI_Wtime() - t0;  // the set-up's own k is set-up time
  return st;
}

void AutoStepper::observe(std::function<bool(long)> observed) {
  observed_ = std::move(observed);
  for (auto& [k, f] : for_k_) f.stepper->observe(observed_);
}

long AutoStepper::exchanges() const {
  long n = retired_exchanges_;
  for (const auto& [k, f] : for_k_) n += f.stepper->exchanges();
  return n;
}

bool AutoStepper::applies(Phase phase) {
  const core::Config& c = s_.cfg;
  switch (phase) {
    case Phase::kSteps:
      return s_.k_candidates.size() > 1;
    case Phase::kTiles:
      return c.temporal_blocking.mode == core::TemporalBlockingInput::Mode::kAuto && k_ > 1 &&
             stepper_for(k_).cycle().tiling().tile_y > 0;
    case Phase::kOverlap:
      return c.overlap == core::OverlapInput::kAuto;
    case Phase::kDone:
      break;
  }
  return false;
}

void AutoStepper::start_phase(Phase from) {
  for (phase_ = from; phase_ != Phase::kDone; phase_ = next_phase(phase_)) {
    if (!applies(phase_)) continue;
    std::vector<long> candidates;
    long start = 0;
    switch (phase_) {
      case Phase::kSteps:
        candidates.assign(s_.k_candidates.begin(), s_.k_candidates.end());
        start = k_;
        break;
      case Phase::kTiles:
        candidates = kernels::tile_candidates(s_.tile_basis);
        start = stepper_for(k_).cycle().tiling().tile_y;
        break;
      case Phase::kOverlap:
        candidates = {0, 1};
        start = overlap_ ? 1 : 0;
        break;
      case Phase::kDone:
        break;
    }
    const auto at = std::find(candidates.begin(), candidates.end(), start);
    core::require(at != candidates.end(), "AutoStepper: the start is not a candidate");
    search_.emplace(candidates, static_cast<std::size_t>(at - candidates.begin()));
    // The start is the configuration the last phase picked: its time is known.
    if (config_seconds_) search_->record(*config_seconds_);
    if (next_trial()) return;
  }
}

long AutoStepper::trial_length(int k) { return k * std::max(kTrialCycles, (kTrialSteps + k - 1) / k); }

double AutoStepper::halo_cells(int k) const {
  const core::HaloWidths w = halo::halo_widths(s_.cfg.grid, core::halo_stencil(s_.cfg), k);
  const core::Box& b = s_.pattern.layout.box;
  double with_halo = 1;
  for (int d = 0; d < 3; ++d) with_halo *= static_cast<double>(b.n[d] + w.lo[d] + w.hi[d]);
  return with_halo - static_cast<double>(b.cells());
}

bool AutoStepper::affordable(int k) {
  // Building a k's stepper costs about what the set-up's took per halo cell (the slowest rank's).
  const double build = agreed_seconds(build_seconds_per_cell_ * halo_cells(k), s_.comm());
  const std::optional<double> rest = remaining_seconds();
  return rest && build <= kBuildShare * *rest;
}

std::optional<double> AutoStepper::remaining_seconds() const {
  std::optional<double> per_step = config_seconds_;
  for (const auto& m : search_->measured())
    if (!per_step || m.seconds < *per_step) per_step = m.seconds;
  if (!per_step) return std::nullopt;
  return *per_step * static_cast<double>(s_.cfg.steps - now_);
}

bool AutoStepper::next_trial() {
  long measured = 0;
  for (const Trial& t : trials_) measured += t.steps;
  while (!search_->done()) {
    const long k = phase_ == Phase::kSteps ? search_->next() : k_;
    if (try_all_) break;
    if (const std::optional<double> rest = remaining_seconds(); rest && *rest < kMinMeasuredSeconds) {
      short_run_seconds_ = rest;
      search_->stop();
    } else if (measured + trial_length(static_cast<int>(k)) > budget_steps_) {
      search_->stop();
    } else if (phase_ == Phase::kSteps && for_k_.count(static_cast<int>(k)) == 0 && !affordable(static_cast<int>(k))) {
      search_->skip();
    } else {
      break;
    }
  }
  if (search_->done()) {
    // The pick of this phase stays, with its time.
    choose(search_->best());
    if (const auto t = search_->seconds_of(search_->best())) config_seconds_ = t;
    if (phase_ == Phase::kOverlap)
      if (const auto t = search_->seconds_of(0)) off_seconds_ = t;
    searched_.emplace_back(phase_, std::move(*search_));
    search_.reset();
    return false;
  }
  choose(search_->next());
  trial_length_ = trial_length(k_);
  trial_steps_ = 0;
  trial_seconds_ = cycle_seconds_ = 0;
  trial_best_.reset();
  return true;
}

bool AutoStepper::loses_at_first_cycle(double first, const core::OrderedSearch& search) {
  std::optional<double> fastest;
  for (const auto& m : search.measured())
    if (!fastest || m.seconds < *fastest) fastest = m.seconds;
  return fastest && first > (1 + kCutMargin) * *fastest;
}

bool AutoStepper::first_cycle_loses() {
  return !search_->measured().empty() && loses_at_first_cycle(agreed_seconds(*trial_best_, s_.comm()), *search_);
}

void AutoStepper::choose(long candidate) {
  switch (phase_) {
    case Phase::kSteps:
      k_ = static_cast<int>(candidate);
      break;
    case Phase::kTiles:
      tile_ = candidate;
      break;
    case Phase::kOverlap:
      overlap_ = candidate == 1;
      break;
    case Phase::kDone:
      break;
  }
}

void AutoStepper::switch_to_choice(core::State& u) {
  Stepper& target = stepper_for(k_);
  if (&target != current_) {
    target.begin_at(now_);
    current_ = &target;
  }
  if (ForK& f = for_k_.at(k_); search_ && !f.warm) {
    // A plan's first exchange sets up connections and touches its buffers: not the candidate's time.
    const double t0 = MPI_Wtime();
    current_->exchange(u);
    overhead_seconds_ += MPI_Wtime() - t0;
    f.warm = true;
  }
  if (tile_) {
    const bool measured = phase_ == Phase::kOverlap || phase_ == Phase::kDone;  // the tiles phase is over
    const std::string state = measured ? "measured" : "measuring";
    current_->set_tiling(kernels::TemporalTiling{*tile_},
                         *tile_ == 0 ? fmt::format("auto: {}, off", state) : fmt::format("auto: {}, {} rows", state, *tile_));
  }
  if (current_->overlap() != overlap_) {
    // The exchanges so far were blocking ones: the reference of the summary's overlap lines.
    if (overlap_ && !blocking_exchange_ && current_->exchanges() > 0)
      blocking_exchange_ = current_->exchange_seconds() / static_cast<double>(current_->exchanges());
    current_->set_overlap(overlap_);
  }
  if (overlap_ && phase_ == Phase::kDone && !freed_ && s_.cfg.overlap == core::OverlapInput::kAuto && blocking_exchange_ &&
      *blocking_exchange_ > 0 && off_seconds_ && *off_seconds_ > 0)
    // Picked for good: compared with this run's blocking cycles (the picks' time per step without overlap).
    current_->use_blocking_reference(*blocking_exchange_, *off_seconds_ * current_->overlap_unit_steps());
  if (phase_ == Phase::kDone && !freed_) {
    freed_ = true;
    for (auto it = for_k_.begin(); it != for_k_.end();) {
      if (it->first == k_) {
        ++it;
        continue;
      }
      retired_exchanges_ += it->second.stepper->exchanges();
      it = for_k_.erase(it);
    }
  }
}

void AutoStepper::step(core::State& u, core::State& next) {
  if (!started_) {
    started_ = true;
    if (s_.measure) start_phase(Phase::kSteps);
    switch_to_choice(u);
  } else if (pending_) {
    pending_ = false;
    switch_to_choice(u);
  }
  const double t0 = MPI_Wtime();
  current_->step(u, next);
  const double seconds = MPI_Wtime() - t0;
  ++now_;
  if (!search_) return;
  trial_seconds_ += seconds;
  cycle_seconds_ += seconds;
  if (++trial_steps_ % k_ == 0) {
    // A cycle preempted by the OS or a noisy neighbour does not decide: the trial's fastest cycle does.
    const double per_step = cycle_seconds_ / k_;
    if (!trial_best_ || per_step < *trial_best_) trial_best_ = per_step;
    cycle_seconds_ = 0;
  }
  if (trial_steps_ < trial_length_ && (trial_steps_ != k_ || !first_cycle_loses())) return;
  // A whole number of cycles: the stepper is settled, and every rank is here at the same step.
  const double per_step = agreed_seconds(*trial_best_, s_.comm());  // a whole number of cycles: at least one
  trials_.push_back({trial_steps_, agreed_seconds(trial_seconds_, s_.comm())});
  search_->record(per_step);
  if (!next_trial()) start_phase(next_phase(phase_));
  pending_ = true;
}

std::string AutoStepper::report(double loop_seconds) const {
  const core::Config& c = s_.cfg;
  const bool any_auto = c.steps_per_exchange == core::kAutoSteps || c.overlap == core::OverlapInput::kAuto ||
                        c.temporal_blocking.mode == core::TemporalBlockingInput::Mode::kAuto;
  if (!any_auto) return "";
  if (!s_.measure || trials_.empty())
    return fmt::format("  auto            not measured ({}): k = {}, overlap {}, tiles {}\n",
                       !s_.measure                    ? fmt::format("run.steps < {}", kMinMeasuredSteps)
                       : budget_steps_ < kTrialSteps ? std::string("too few steps left")
                                                     : std::string("nothing to choose with these keys"),
                       current_->k(),
                       current_->overlap() ? "on" : "off", current_->cycle().describe());
  std::string text;
  if (short_run_seconds_)
    text += fmt::format("  auto            measured no further: the rest of the run would take {:.2g} s at the best speed so far, "
                        "too little to win back more trials (under {:g} s)\n",
                        *short_run_seconds_, kMinMeasuredSeconds);
  for (const auto& [phase, search] : searched_) {
    std::vector<std::string> names;
    for (const long v : search.candidates()) {
      if (phase == Phase::kSteps) names.push_back(fmt::format("k={}", v));
      else if (phase == Phase::kTiles) names.push_back(v == 0 ? std::string("off") : fmt::format("{} rows", v));
      else names.push_back(v == 1 ? "on" : "off");
    }
    text += fmt::format("  auto            {}: {}\n", key_of(phase), search.describe(names));
  }
  long steps = 0;
  double seconds = 0;
  for (const Trial& t : trials_) steps += t.steps, seconds += t.seconds;
  // Without a measured pick (still measuring its first phase) all of the trials' time counts.
  const double above = std::max(0.0, seconds - static_cast<double>(steps) * config_seconds_.value_or(0.0));
  const double cost = above + overhead_seconds_;
  text += fmt::format(
      "  auto cost       {} of {} steps measured in {} trial(s) of whole cycles{}: {:.3g} ms above the picks' speed, "
      "{:.3g} ms building other choices and warming up plans; {:.2g}% of the loop\n",
      steps, c.steps, trials_.size(), phase_ == Phase::kDone ? "" : " (still measuring at the end)", 1e3 * above,
      1e3 * overhead_seconds_, loop_seconds > 0 ? 100 * cost / loop_seconds : 0.0);
  return text;
}

}  // namespace cartex::app
