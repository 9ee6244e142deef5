// Barrier-synchronised timing of benchmark cells (ICPP'19 Appendix A, EuroMPI'15 section 7):
// warm-up runs per cell, then several series, each visiting every cell in a new random order shared
// by all processes, with barrier-synchronised repetitions; a sample is the slowest process's time.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "benchstats/summary.hpp"

namespace benchstats {

// Repetition counts and filter of one timing run (the command-line knobs every benchmark exposes).
struct Method {
  int warmup = 20;
  int reps = 50;
  int series = 5;
  double tukey = 3.0;
  std::uint64_t seed = 1;
};

// One thing to time; `samples` collects the slowest process's time of each repetition.
struct Cell {
  std::string label;
  std::function<void()> run;
  std::vector<double> samples;
};

// The largest of every process's `local` (collective over comm).
double slowest(double local, MPI_Comm comm);

// Runs the method over `cells` and appends the samples (the same on every process). Collective.
void time_cells(std::vector<Cell>& cells, const Method& m, MPI_Comm comm);

// time_cells, then the summary of every cell (same order as `cells`). Collective.
std::vector<Summary> time_and_summarize(std::vector<Cell>& cells, const Method& m, MPI_Comm comm,
                                        Quantile rule = Quantile::interpolated);

}  // namespace benchstats
