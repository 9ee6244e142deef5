#pragma once
// The search behind every `auto` a run measures (halo.steps_per_exchange, halo.temporal_blocking,
// comm.overlap): a walk along an ordered list of candidates from a start towards the faster
// neighbour, which ends where both neighbours of the fastest candidate measured are slower (or do
// not exist). Times are seconds per step; each candidate is measured once, except one the walk
// leaves: a neighbour that beats a candidate measured once sends the walk back to measure it again
// (its faster time counts) before it moves on. One measurement is one cycle, and on a shared machine
// a cycle can run twice as long as the next (kernelbench's walk picked 0.81 of the best tile from a
// slow first cycle: issue 40); a slow neighbour only keeps the walk where it is, which costs nothing.
// A candidate too costly to try is skipped: the walk passes over it to the next one.
//
//   candidates     8     16    32    64    128       tile_y rows, start 32
//   measured             3.1   2.9   3.4             32 first, then 64 (slower), then 16 (slower)
//   pick                       32                    both neighbours slower: done, 3 measurements
//
//   candidates     1     2     4     8                 k, start 4
//   measured                   3.0   2.8               4, then 8: faster; 4 again (3.0: slower), so
//   pick                             8                 the walk moves to 8, which has no upper
//                                                      neighbour, and 4 is measured: done
//
// It never talks to MPI: a run feeds it the slowest rank's time of each measurement
// (apps/driver/src/auto_stepper.cpp), so every rank walks the same path to the same pick; kernelbench
// feeds it single cycles as a run would, and the tests feed it injected times.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cartex::core {

class OrderedSearch {
 public:
  struct Measurement {
    long candidate;
    double seconds;  // per step; infinity when skipped
  };

  // `candidates` in order, at least one; `start` an index into them.
  OrderedSearch(std::vector<long> candidates, std::size_t start);

  // True when nothing is left to measure (or stop() was called).
  bool done() const;
  // The candidate to measure next (only while !done()).
  long next() const;
  // The time of next(), seconds per step.
  void record(double seconds);
  // Passes next() over without measuring it (too costly to try): it is never picked, and the walk
  // goes on to the candidate beyond it.
  void skip();
  // Ends the search where it stands (the measuring budget is spent): best() is the answer.
  void stop() { stopped_ = true; }
  // The fastest candidate measured (the start before any measurement).
  long best() const { return candidates_[best_]; }
  // A candidate's time: the fastest of its measurements (none: not measured, or skipped).
  std::optional<double> seconds_of(long candidate) const;
  // The measurements, in the order they were made.
  const std::vector<Measurement>& measured() const { return measured_; }
  const std::vector<long>& candidates() const { return candidates_; }
  // "1 5.00, 2 3.60, 4 3.00 ms/step -> 4" with `unit` scaling seconds (1e3: ms) and a name per candidate.
  std::string describe(const std::vector<std::string>& names, const char* unit = "ms/step", double scale = 1e3) const;

 private:
  std::size_t next_index() const;

  std::vector<long> candidates_;
  std::vector<double> seconds_;  // per candidate, the fastest measurement; negative: not measured
  std::vector<int> times_;       // per candidate, its measurements
  std::optional<std::size_t> recheck_;  // the candidate the walk is leaving, to measure again next
  std::vector<Measurement> measured_;
  std::size_t best_;
  bool stopped_ = false;
};

}  // namespace cartex::core
