// Barrier-synchronised timing of benchmark cells: warm-up, then series visiting every cell in a
// random order shared by all processes; a sample is the slowest process's time.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "stats.hpp"

namespace graphbench {

// One thing to time.
struct Cell {
  std::string label;
  std::function<void()> run;
  std::vector<double> samples;
};

// Times all cells and returns their summaries (same order as `cells`). Collective.
std::vector<Summary> time_cells(std::vector<Cell>& cells, int warmup, int reps, int series, double tukey, unsigned seed);

}  // namespace graphbench
