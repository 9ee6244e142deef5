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

// --fields: one backend's N fields exchanged together (one plan of N fields) and one by one (one plan
// of one field, N exchanges), on the same N fields.
struct FieldsResult {
  std::string backend;
  std::string chosen;                  // auto: what the N-field plan picked
  int fields = 1;                      // N
  long wrong_cells = 0;                // of both plans' checks; > 0: not timed
  cartex::halo::HaloStats together;    // per exchange of the N fields, the maximum over ranks
  cartex::halo::HaloStats one_by_one;  // the same for N one-field exchanges
  benchstats::Summary together_time;   // seconds per exchange of the N fields
  benchstats::Summary one_by_one_time;
  double ratio = 0.0;                  // together median / one-by-one median
};

// The backends of a run: the requested ones (every row of the halo registry when none), baseline
// first, without those this build or --gpu-aware-mpi cannot run (halo::refusal). Without the
// baseline there are no ratios.
std::vector<std::string> backends_to_run(const Options& o);

// The requested backends that cannot run, each with the reason, for the run to say it skips them.
std::vector<std::string> skipped_backends(const Options& o);

// Builds, checks and times every backend on `p`; the results are the same on every rank. Collective.
std::vector<Result> bench_problem(const Problem& p, const Options& o, MPI_Comm comm);

// --fields: for every backend and N of o.fields, builds and checks a plan of N fields and one of one
// field, then times both cells (together, one by one) in the same random series. The fields are
// shared by every backend (max N of them). Collective.
std::vector<FieldsResult> bench_fields(const Problem& p, const Options& o, MPI_Comm comm);

}  // namespace halobench
