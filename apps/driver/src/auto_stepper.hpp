#pragma once
// The steps of a run, on the stepper its automatic choices settle on. halo.steps_per_exchange,
// halo.temporal_blocking and comm.overlap `auto` are measured on the run's own cycles, which are
// kept: every k, tile and overlap gives the same bits. A trial is whole cycles of one configuration,
// at least two and kTrialSteps steps (one, when the first is already more than kCutMargin slower than
// the fastest candidate of its phase); its time is its fastest cycle's per step, agreed as the slowest
// rank's (agreed_seconds); the trials walk one OrderedSearch (cartex/core/ordered_search.hpp) per choice in turn:
//
//   phase     candidates (in order)                  start          a trial                 next
//   steps     k = 1, 2, 4, 8 (those the grid and     4              >= 2 cycles, >= 4 steps  tiles
//             the memory estimate allow, setup.cpp)
//   tiles     8, 16, 32, ... rows x threads, the     32 x threads   >= 2 cycles, >= 4 steps  overlap
//             view's rows
//   overlap   off, on                                off            >= 2 cycles, >= 4 steps  done
//   done      the picks stay; the other k's steppers are freed                               done
//
// A phase moves to the next (next_phase) when its search is done or its budget spent, or at once
// when it does not apply; the first run step starts the walk at steps.
//
// A phase runs only where its key is auto and it can matter (tiles: k >= 2 on the host with a blocked
// kernel). Its start candidate is the configuration the phase before picked, so the time measured
// there is recorded for it without another trial. The walk stops early when the steps measured would
// pass a quarter of the run's, or once the rest of the run would take less than kMinMeasuredSeconds
// at the best speed so far; a k whose stepper is not built is skipped unless building it fits
// kBuildShare. A run shorter than kMinMeasuredSteps measures nothing: set-up chose k = 1, tiles stay
// default_tile_y() and overlap off. Every k runs on the same two fields, laid out
// for the deepest candidate (halo::make_halo_pattern with a wider view), so switching k at the end of
// a cycle copies nothing; a new k's stepper is built when the walk first reaches it (collectively:
// every rank walks the same path), and its first exchange is a warm-up outside the timing.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cartex/core/ordered_search.hpp"
#include "driver.hpp"
#include "stepper.hpp"

namespace cartex::app {

// The slowest rank's `seconds` (MPI_MAX over comm): what every rank records, so that all walk the same
// path to the same choice. Collective; throws core::Error when MPI fails.
double agreed_seconds(double seconds, MPI_Comm comm);

class AutoStepper {
 public:
  // Steps of a trial at least (whole cycles): long enough for the timer, short enough that a poor
  // candidate costs little.
  static constexpr long kTrialSteps = 4;
  // Cycles of a trial at least: its time is its fastest cycle's, so one preempted cycle does not decide.
  static constexpr long kTrialCycles = 2;
  // ... unless its first cycle is this much slower than the phase's fastest so far: a second cycle
  // could only confirm a loser (a preempted cycle of a tile walk on a quiet guest is a few percent;
  // the candidates cut here ran 8-14% slower in every run of issue 40), and costs about 0.5% of a
  // 200-step 256^3 run.
  static constexpr double kCutMargin = 0.10;
  // A k whose stepper is not built yet is tried only if building it (predicted from the set-up's)
  // costs at most this share of the run's remaining time at the best speed measured so far.
  static constexpr double kBuildShare = 0.01;
  // The walk stops once the rest of the run, at the best speed measured so far, would take less than
  // this: more trials could not win back what they cost.
  static constexpr double kMinMeasuredSeconds = 1.0;

  // Builds the stepper of s.k (collective).
  explicit AutoStepper(const Setup& s);

  // Computes `next` from `u` as Stepper::step does; between trials it switches k, tiles or overlap.
  void step(core::State& u, core::State& next);
  void observe(std::function<bool(long step)> observed);
  bool settled() const { return current_->settled(); }
  // A blocking exchange of u's halo by the current stepper (start-up of multi-level schemes).
  void exchange(core::State& u) { current_->exchange(u); }
  // comm.overlap true: Stepper::calibrate before the loop (auto calibrates when it picks overlap).
  void calibrate(core::State& u, core::State& next, bool next_is_scratch) { current_->calibrate(u, next, next_is_scratch); }

  // The stepper in use (the picks, once the walk is done).
  const Stepper& stepper() const { return *current_; }
  // Halo exchanges of every stepper of this run.
  long exchanges() const;
  // The summary's lines on the automatic choices ("  auto ..."): each phase's measurements and pick,
  // and the cost against `loop_seconds`; empty when no key is auto or nothing could be measured.
  std::string report(double loop_seconds) const;

 private:
  enum class Phase { kSteps, kTiles, kOverlap, kDone };
  // The phase after `p` (the table's last column).
  static Phase next_phase(Phase p);
  // The input key `p` chooses (not kDone).
  static const char* key_of(Phase p);
  struct ForK {
    std::unique_ptr<halo::HaloGeometry> geometry;  // null for the set-up's own k
    std::unique_ptr<halo::HaloPattern> pattern;
    std::unique_ptr<Stepper> stepper;
    bool warm = false;
  };
  struct Trial {
    long steps;
    double seconds;  // the slowest rank's
  };

  // The stepper of k, built on first use (collective).
  Stepper& stepper_for(int k);
  // Steps of a trial of k steps per exchange: kTrialCycles cycles, kTrialSteps steps at least.
  static long trial_length(int k);
  // Halo cells of this rank's block for k steps per exchange.
  double halo_cells(int k) const;
  // The rest of the run's time at the best speed measured so far (nothing before any measurement).
  std::optional<double> remaining_seconds() const;
  // True if building k's stepper fits kBuildShare (the same answer on every rank). Collective.
  bool affordable(int k);
  // True if `phase` has something to measure in this run.
  bool applies(Phase phase);
  // Starts the first phase from `from` on that has a trial to run (kDone when none).
  void start_phase(Phase from);
  // Chooses the running phase's next trial and returns true; or, when its search is done (or the
  // budget is spent), chooses its pick, files it and returns false.
  bool next_trial();
  // After a trial's first cycle: true if its slowest rank's time is more than kCutMargin above the
  // fastest candidate its phase measured. Collective (every rank holds the same records).
  bool first_cycle_loses();
 public:
  // The rule of first_cycle_loses: `first` (seconds per step, agreed) more than kCutMargin above the
  // fastest of `search`'s measurements; false before any.
  static bool loses_at_first_cycle(double first, const core::OrderedSearch& search);

 private:
  // Makes `candidate` of the running phase the choice.
  void choose(long candidate);
  // Puts the choices into effect at the start of a step (the end of a cycle): switches steppers,
  // tiles and overlap; once every phase is done, frees the other steppers.
  void switch_to_choice(core::State& u);

  const Setup& s_;
  std::map<int, ForK> for_k_;
  Stepper* current_ = nullptr;
  std::function<bool(long)> observed_;
  long now_;           // the last step computed
  long budget_steps_;  // the most steps the trials may take: a quarter of the run's
  bool try_all_;       // CARTEX_AUTO_TRY_ALL=1 (tests): every candidate, whatever the budgets say
  // The choices: k, tile_y (0: off; none chosen: the stepper's own default) and overlap.
  int k_ = 1;
  std::optional<long> tile_;
  bool overlap_ = false;
  Phase phase_ = Phase::kDone;
  std::optional<core::OrderedSearch> search_;
  std::vector<std::pair<Phase, core::OrderedSearch>> searched_;  // finished phases, for report()
  std::optional<double> config_seconds_;     // time per step of the current choices, once measured
  std::optional<double> off_seconds_;        // time per step of the picks without overlap (the overlap phase's start)
  std::optional<double> short_run_seconds_;  // the rest of the run's predicted time when it stopped the walk
  std::optional<double> blocking_exchange_;  // mean blocking exchange before the first overlapped trial
  long trial_length_ = 0, trial_steps_ = 0;
  double trial_seconds_ = 0, cycle_seconds_ = 0;
  std::optional<double> trial_best_;  // the trial's fastest cycle so far, seconds per step
  std::vector<Trial> trials_;
  double overhead_seconds_ = 0;  // steppers built and warmed up, calibration, during the run
  double build_seconds_per_cell_ = 0;  // the set-up's pattern and stepper, per halo cell
  long retired_exchanges_ = 0;   // of the steppers freed
  bool started_ = false, pending_ = false, freed_ = false;
};

}  // namespace cartex::app
