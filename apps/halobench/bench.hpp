// Times every backend's exchange on one problem with the benchstats method.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "benchstats/summary.hpp"
#include "cartex/halo/plan.hpp"
#include "options.hpp"
#include "problem.hpp"

namespace halobench {

// The backend every ratio is taken against: the MPI standard's neighborhood collective.
inline const char* const kBaseline = "mpi_neighbor_alltoallw";

// One backend's result on one problem.
struct Result {
  std::string backend;
  std::string chosen;        // auto: the backend it picked; else the backend itself
  std::string note;          // auto: the timings behind its choice
  long wrong_cells = 0;      // > 0: the exchange was wrong and the backend was not timed
  cartex::halo::HaloStats stats;   // per exchange, the maximum over ranks of each figure
  benchstats::Summary time;  // seconds per exchange (slowest rank), filtered
  double ratio = 0.0;        // median / the baseline's median
  std::vector<double> series_medians;  // seconds, one per series (benchstats::series_medians)
};

// The backends of a run: the requested ones (every row of the halo registry when none), baseline
// first, without those this build or --gpu-aware-mpi cannot run (halo::refusal). Without the
// baseline there are no ratios.
std::vector<std::string> backends_to_run(const Options& o);

// The requested backends that cannot run, each with the reason, for the run to say it skips them.
std::vector<std::string> skipped_backends(const Options& o);

// Builds, checks and times every backend on `p`; the results are the same on every rank. Collective.
std::vector<Result> bench_problem(const Problem& p, const Options& o, MPI_Comm comm);

}  // namespace halobench
