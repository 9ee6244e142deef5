#pragma once
// The halo pattern of one rank: a value computed once from the decomposition, the stencil and the
// steps per exchange k, that every backend turns into its own exchange plan.
//
// Neighborhood (identical on every rank, so it is a Cartesian neighborhood in the sense of ICPP'19):
// block i goes to the process at +neighbors[i] and comes from the process at -neighbors[i].
// neighbors = -(owner offsets): we receive block i, the halo cells owned by rank - neighbors[i], and
// send block i, our cells in the halo of rank + neighbors[i]. A block may be empty on some ranks
// (uneven blocks, boundaries); blocks of MPI_PROC_NULL neighbors are empty.
//
// Cells are linear indices into the field's view (LayoutRight, (z, y, x)), listed in the z, y, x order
// of the unwrapped global cells, which sender and receiver share.
//
// Deep halos (EuroMPI'15 section 2): after an exchange, step j = 1 .. k updates the cells of
// B + S^(k-j) inside the domain (the ghost-zone cells whose dependencies are all present; step k
// updates the block B itself); with overlap, step 1 is split into `inner` (reads only B) and `rim`.
#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/core/decomposition.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex {

// One rank's halo pattern; see the header comment.
struct HaloPattern {
  int rank = 0;
  int steps_per_exchange = 1;
  FieldLayout layout;
  std::vector<Offset> neighbors;
  std::vector<int> target;                  // rank at +neighbors[i] (MPI_PROC_NULL outside)
  std::vector<int> source;                  // rank at -neighbors[i]
  std::vector<std::vector<long>> send;      // block i: our cells for target[i]
  std::vector<std::vector<long>> recv;      // block i: our halo cells from source[i]
  std::vector<std::vector<LineRun>> update; // update[j - 1]: cells updated in step j
  std::vector<LineRun> inner, rim;          // step 1 split for overlap: inner reads only the block

  // Cells sent per exchange, and non-empty messages to real neighbors.
  long send_cells() const;
  long send_messages() const;
};

// Builds rank's pattern; throws std::invalid_argument when k < 1 or the halo is deeper than a
// periodic grid dimension.
HaloPattern make_halo_pattern(const Decomposition& decomp, int rank, const Stencil& stencil, int k);

// Linear view index of view cell (i, j, k) in `layout`.
inline long linear_index(const FieldLayout& l, long i, long j, long k) { return (k * l.extent(1) + j) * l.extent(0) + i; }

}  // namespace cartex
