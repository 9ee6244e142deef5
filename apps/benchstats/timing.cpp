// Series in a random order shared by all processes (same seed everywhere), barrier before every
// repetition so that each sample starts together and measures one operation, not a backlog.
#include "benchstats/timing.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "cartex/core/mpi_check.hpp"

namespace benchstats {

double slowest(double local, MPI_Comm comm) {
  double out = 0.0;
  cartex::core::check_mpi(MPI_Allreduce(&local, &out, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return out;
}

void time_cells(std::vector<Cell>& cells, const Method& m, MPI_Comm comm) {
  for (Cell& c : cells)
    for (int w = 0; w < m.warmup; ++w) c.run();
  std::vector<std::size_t> order(cells.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(m.seed);
  for (int s = 0; s < m.series; ++s) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t k : order)
      for (int r = 0; r < m.reps; ++r) {
        cartex::core::check_mpi(MPI_Barrier(comm), "MPI_Barrier");
        const double t0 = MPI_Wtime();
        cells[k].run();
        cells[k].samples.push_back(slowest(MPI_Wtime() - t0, comm));
      }
  }
}

std::vector<Summary> time_and_summarize(std::vector<Cell>& cells, const Method& m, MPI_Comm comm, Quantile rule) {
  time_cells(cells, m, comm);
  std::vector<Summary> out;
  for (const Cell& c : cells) out.push_back(summarize(c.samples, m.tukey, rule));
  return out;
}

}  // namespace benchstats
