// graphbench: comm/graph latency against MPI_Neighbor_allgather (HiPC'17 Figs. 2-5 design) and
// the inter-node traffic tables of comm/ranks (NESUS'14).
#pragma once

#include <string>
#include <vector>

namespace graphbench {

// Command-line settings.
struct Options {
  std::vector<double> densities = {0.2, 0.5};
  std::vector<std::string> moore = {"2:1", "2:2", "3:1"};
  std::vector<int> sizes = {4, 64, 1024, 4096};
  int theta = 4;
  unsigned seed = 1;
  int warmup = 10, reps = 20, series = 5;
  double tukey = 3.0;
  // traffic tables
  std::vector<int> procs = {8, 16, 64};
  std::vector<int> ppn = {4, 8};
  int count = 1 << 16;
  std::vector<int> grid = {16, 16, 8};
  int face_bytes = 8 * 64 * 64;
  // ring overhead timing
  std::vector<int> ring_counts = {1, 1024, 65536};
};

// Latency of neighbor allgather per topology and size: mpi, combining (blocking), combining_init.
void run_latency(const Options& o);
// Inter-node messages/bytes of ring vs ring_renamed and of halo exchanges with/without reordering.
void run_traffic(const Options& o);
// Time of ring vs ring_renamed vs MPI_Allreduce on this machine (renaming overhead).
void run_ring_overhead(const Options& o);

}  // namespace graphbench
