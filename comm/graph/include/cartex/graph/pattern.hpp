// Message-combining pattern of an MPI distributed-graph communicator, after Mirsadeghi, Träff,
// Balaji, Afsahi, "Exploiting Common Neighborhoods to Optimize MPI Neighborhood Collectives" (HiPC
// 2017; "HiPC'17", "the paper"): Algorithm 1 (iterative pattern), its common-
// neighborhood matrix M (section IV-B1), friends with at least theta common out-neighbors, and the
// distributed friend pairing of Algorithm 2 (section IV-B2).
//
// What one call of a combining collective does at process p (Algorithm 3, built in schedule.cpp):
//
//   step 0            step 1                 ...  step T-1          final step
//   +--------------+  +--------------+             +--------------+  +------------------------+
//   | A: p <-> p'  |  | A: p <-> p'' |             | (no friend)  |  | p -> remaining Oa      |
//   |   own blocks |  |              |             |              |  |   (one direct message) |
//   | B: p -> CN_on|  | B: ...       |     ...     | B: recv only |  | recv remaining Ia      |
//   |   {p, p'}    |  |              |             |              |  | self loops: local copy |
//   | recv tagged 0|  | recv tagged 1|             | recv tagged  |  |                        |
//   +--------------+  +--------------+             +--------------+  +------------------------+
//
// A step's phase A exchanges p's blocks for the offloaded half of the common neighbors with the
// paired friend p'; phase B sends one combined message {p's block, p''s block} to every onloaded
// common neighbor and receives the messages the in-neighbors send in that step.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

namespace cartex::graph {

// A message this process receives in a combining step: from `sender`, carrying the blocks of
// `sender` and then of `partner` (the sender's friend in that step).
struct Incoming {
  int sender = -1;
  int partner = -1;
};

// This process's part of one iteration of Algorithm 1.
struct Step {
  int friend_rank = -1;           // p', or -1 if this process did not pair in this iteration
  std::vector<int> onloaded;      // CN_on: common out-neighbors this process serves for both (sorted)
  std::vector<int> offloaded;     // CN_off: common out-neighbors the friend serves for both (sorted)
  std::vector<Incoming> incoming; // combined messages received in this step (ascending sender)
};

// The pattern: built once per communicator and theta by a collective call, immutable afterwards.
// Every process holds the same number of steps; the stage counts follow the paper's notion of a
// communication stage (one message sent).
class Pattern {
 public:
  // Runs Algorithm 1 collectively over `graph_comm` (an MPI_DIST_GRAPH communicator); theta >= 1.
  static std::shared_ptr<const Pattern> build(MPI_Comm graph_comm, int theta = 4);

  Pattern(const Pattern&) = delete;
  Pattern& operator=(const Pattern&) = delete;
  ~Pattern();

  // The friendship threshold the pattern was built with.
  int theta() const { return theta_; }
  // Iterations of Algorithm 1 (combining steps), the same on every process.
  int iterations() const { return static_cast<int>(steps_.size()); }
  // This process's part of each iteration.
  const std::vector<Step>& steps() const { return steps_; }
  // Out-neighbors still served directly after the last iteration (Algorithm 1 line 27).
  const std::vector<int>& direct_targets() const { return direct_targets_; }
  // In-neighbors still sending directly after the last iteration (lines 28-30).
  const std::vector<int>& direct_sources() const { return direct_sources_; }
  // The communicator's in-neighbors in MPI order (repeats and self loops included).
  const std::vector<int>& sources() const { return sources_; }
  // The communicator's out-neighbors in MPI order (repeats and self loops included).
  const std::vector<int>& destinations() const { return destinations_; }
  // Messages this process sends per call (friend exchanges, combined and direct messages).
  int stages() const { return stages_; }
  // Messages this process would send without combining: distinct out-neighbors other than itself.
  int naive_stages() const { return naive_stages_; }
  // Maximum of stages() over all processes (the latency-relevant count).
  int max_stages() const { return max_stages_; }
  // Maximum of naive_stages() over all processes.
  int max_naive_stages() const { return max_naive_stages_; }
  // Iterations in which this process paired with a friend.
  int pairings() const;
  // Wall time of build() on this process, seconds (the paper's "phase 1").
  double build_seconds() const { return build_seconds_; }
  // The private duplicate of the graph communicator that carries all traffic of this pattern.
  MPI_Comm comm() const { return comm_; }

 private:
  Pattern() = default;
  int theta_ = 0;
  std::vector<Step> steps_;
  std::vector<int> direct_targets_, direct_sources_, sources_, destinations_;
  int stages_ = 0, naive_stages_ = 0, max_stages_ = 0, max_naive_stages_ = 0;
  double build_seconds_ = 0.0;
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace cartex::graph
