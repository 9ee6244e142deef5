// The HiPC'17 benchmark topologies: Erdos-Renyi random digraphs and Moore neighborhoods.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace graphbench {

// This process's out-neighbors in a graph every process generates identically.
struct Topology {
  std::string name;
  std::vector<std::vector<int>> out;  // per rank
};

// G(P, density) without self loops, from `seed`.
Topology erdos_renyi(int procs, double density, unsigned seed);
// Moore neighborhood (2r+1)^d - 1 on MPI_Dims_create's torus; repeated targets are merged and
// self loops dropped, as the paper's D, R are chosen to avoid them.
Topology moore(int procs, int d, int r);
// The distributed-graph communicator of `t` over MPI_COMM_WORLD (adjacent, no reordering).
MPI_Comm create_comm(const Topology& t);

}  // namespace graphbench
