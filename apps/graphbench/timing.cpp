// Series in a random order shared by all processes (same seed), barrier before every repetition.
#include "timing.hpp"

#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace graphbench {

std::vector<Summary> time_cells(std::vector<Cell>& cells, int warmup, int reps, int series, double tukey, unsigned seed) {
  for (Cell& c : cells)
    for (int i = 0; i < warmup; ++i) c.run();
  std::vector<std::size_t> order(cells.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(seed);
  for (int s = 0; s < series; ++s) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t k : order)
      for (int r = 0; r < reps; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        cells[k].run();
        double t = MPI_Wtime() - t0, slowest = 0.0;
        MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        cells[k].samples.push_back(slowest);
      }
  }
  std::vector<Summary> out;
  for (Cell& c : cells) out.push_back(summarize(c.samples, tukey));
  return out;
}

}  // namespace graphbench
