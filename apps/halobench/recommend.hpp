// The last line of every problem's table: which comm.backend to put in the input for this problem,
// by how much it beat the runner-up, and whether that margin is larger than the noise of the run.
#pragma once

#include <string>
#include <vector>

#include "bench.hpp"

namespace halobench {

// The fastest backend that runs itself (`auto` is timed as the plan it picked, so it is no candidate)
// and passed its correctness check, and the second fastest.
struct Recommendation {
  std::string best;       // empty: no backend was timed
  std::string runner_up;  // empty: only one was
  double margin = 0.0;                // runner-up's median / best's median - 1
  bool cis_overlap = false;           // the two medians' 95% CIs overlap
  int series_won = 0;                 // series in which best's median was below the runner-up's
  int series = 0;                     // series both have a median for

  // The margin is noise unless the CIs are apart and best won every series.
  bool within_noise() const { return cis_overlap || series_won < series; }
};

Recommendation recommend(const std::vector<Result>& results);

// "recommendation: comm.backend: p2p (...)": the line halobench prints.
std::string recommendation_line(const Recommendation& r);

}  // namespace halobench
