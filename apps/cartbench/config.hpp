// cartbench configuration (command line) and the pieces shared by its modes.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cartbench {

// The implementations run when --impl is not given: all that this build has (available_impls()).
std::vector<std::string> default_impls();

// Empty when `impl` can run in this build, otherwise why not (an MPI feature the configure-time check
// found missing, e.g. dist graphs under SimGrid SMPI: cmake/CartexMpiFeatures.cmake).
std::string unavailable_reason(const std::string& impl);

// Everything the command line sets.
struct Config {
  int d = 3;
  int n = 3;
  int f = -1;
  int moore = 0;        // radius; > 0 replaces (n, f)
  int von_neumann = 0;  // radius; > 0 replaces (n, f)
  std::vector<int> dims;  // empty: MPI_Dims_create
  bool mesh = false;      // non-periodic in every dimension
  std::vector<int> m = {1, 10};
  std::vector<std::string> ops = {"alltoall", "allgather"};
  std::vector<std::string> impls = default_impls();
  bool check = false;  // every received block compared with the oracle (oracle.cpp) after the timing
  int warmup = 20;
  int reps = 50;
  int series = 5;
  double tukey = 3.0;
  std::uint64_t seed = 1;
  std::string csv;
  std::string model;
  int procs = 4096;
  std::string label;  // free text copied into the CSV (machine, run id)
};

// The neighborhood offsets the configuration describes (flattened t*d).
std::vector<int> offsets_of(const Config& c);

// A short name of the neighborhood, e.g. "d3n5f-1" or "d2moore3".
std::string neighborhood_name(const Config& c);

// Process grid for p processes in c.d dimensions.
std::vector<int> dims_of(const Config& c, int p);

// Prints t, C and V of the direct and combining schedules and the schedule construction time.
void print_metrics(const Config& c);

// The oracle: the rank at coords(rank) - offset_i for each offset i (wrapped when periodic, MPI_PROC_NULL
// outside a mesh), from the geometry alone (row-major ranks as MPI_Cart_create without reordering).
std::vector<int> geometric_sources(const std::vector<int>& dims, bool periodic, const std::vector<int>& offsets, int rank);

// The int that `sender` puts at `element` of its send block `block` when checking (the oracle's data).
int oracle_value(int sender, int block, int element);

// Times the collectives of every implementation (rank 0 prints and writes the CSV).
void run_collectives(const Config& c);

// Times neighborhood creation against MPI_Dist_graph_create(_adjacent).
void run_setup(const Config& c);

// Predicts completion times with the linear / two-level model for c.procs processes.
void run_model(const Config& c);

}  // namespace cartbench
