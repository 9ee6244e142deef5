// Test graphs for comm/graph: every process builds the same global edge list from a seed, then the
// distributed-graph communicator of its own edges.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace graphtest {

// A directed multigraph: out[p] lists p's targets in MPI order (repeats and self loops allowed).
struct Graph {
  std::string name;
  std::vector<std::vector<int>> out;
};

// Erdos-Renyi digraph G(P, density): edge p->q (p != q) with probability `density`.
Graph erdos_renyi(int procs, double density, unsigned seed);
// Moore neighborhood of dimension d and radius r on MPI_Dims_create's grid; periodic grids keep
// repeated targets and self loops produced by wrapping, meshes drop targets outside the grid.
Graph moore(int procs, int d, int r, bool periodic);
// Ranks 0 and procs-1 have no edges at all; the others form an Erdos-Renyi graph of density 0.6.
Graph isolated_ranks(int procs);
// Every process has a self loop plus edges to p+1 and p+2 (mod P), twice to p+1.
Graph self_loops_and_repeats(int procs);
// A complete digraph without self loops.
Graph complete(int procs);
// Asymmetric: p sends to every q > p only (rank P-1 sends nothing, rank 0 receives nothing).
Graph upper_triangle(int procs);

// MPI_Dist_graph_create_adjacent over MPI_COMM_WORLD with this process's edges (no reordering).
MPI_Comm create_comm(const Graph& g);

}  // namespace graphtest
