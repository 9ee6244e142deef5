// Test support: the neighborhood cases every collective test loops over, deterministic random
// data, and the MPI reference (a dist-graph communicator built from CX_Cart_neighbor_graph_get).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cartex/cart/cx_cart.h"

namespace carttest {

// A neighborhood on a process grid.
struct Case {
  std::string name;
  std::vector<int> dims;
  std::vector<int> periods;
  std::vector<int> offsets;  // flattened t*d
  int d() const { return static_cast<int>(dims.size()); }
  int t() const { return static_cast<int>(offsets.size() / dims.size()); }
};

// The cases for p processes: d = 1..4, Moore and von Neumann radius 1-3, asymmetric (n=4, f=-1),
// repeated and zero offsets, offsets beyond the grid, periodic / non-periodic / mixed, and grids
// with dimensions of size 1 and 2.
std::vector<Case> cases(int p);

// Deterministic pseudo-random int of (seed, a, b, c).
int value(std::uint64_t seed, int a, int b, int c);

// Creates a neighborhood for a case with the given cx_algorithm / cx_execution info values.
MPI_Comm create(const Case& c, const char* algorithm, const char* execution, bool check = false);

// The dist-graph communicator with the same (non-PROC_NULL) neighbors as cartcomm.
MPI_Comm reference_graph(MPI_Comm cartcomm);

// Sources (sign -1) or targets (+1) of cartcomm including MPI_PROC_NULL, in offset order.
std::vector<int> neighbors(MPI_Comm cartcomm, int sign);

// The same lists computed from the case's geometry alone (no MPI, no cartex): for offset i the rank
// at coords(rank) + sign * offset_i, wrapped in periodic dimensions, MPI_PROC_NULL outside a
// non-periodic one; ranks and coordinates row-major as MPI_Cart_create without reordering.
std::vector<int> geometric_neighbors(const Case& c, int rank, int sign);

}  // namespace carttest
