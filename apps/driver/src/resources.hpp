#pragma once
// Resource limits as input validation: the memory and set-up work an input implies, estimated from
// the grid, the process grid, the stencil and the steps per exchange before anything is allocated
// (docs/input.md, "Resource limits").
#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/decomposition.hpp"

namespace cartex::app {

// What one rank of the largest block allocates (bytes as doubles: an input may ask for more than
// 2^63), the set-up work, and the node's share of it.
struct ResourceEstimate {
  double block_cells = 0;     // cells of the largest block
  double halo_cells = 0;      // the field's halo around it (its halo box minus the block)
  double field_bytes = 0;     // u and next (a two-level state keeps its previous level in next), halos included
  double buffer_bytes = 0;    // send and receive buffers of comm.backend (upper bound)
  double index_bytes = 0;     // halo cell lists of the pattern and the plan, as runs (upper bound)
  double geometry_bytes = 0;  // the halo geometry's step-distance tables
  double staging_bytes = 0;   // HDF5 staging: the block of each checkpoint field (a restart holds them all)
  double walk_cells = 0;      // set-up work: cells of the halo geometry's stencil walks
  int ranks_on_node = 1;      // the most ranks sharing one node (MPI_COMM_TYPE_SHARED)
  double node_limit = 0;      // bytes a node may use: CARTEX_MEMORY_LIMIT or its available memory
  std::string limit_source;   // where node_limit came from, for the messages

  // Everything one rank allocates for the run.
  double rank_bytes() const { return field_bytes + buffer_bytes + index_bytes + geometry_bytes + staging_bytes; }
  // What the fullest node allocates.
  double node_bytes() const { return rank_bytes() * ranks_on_node; }
};

// The most geometry walk cells set-up may take (about 2 GiB of tables, tens of seconds).
constexpr double kMaxWalkCells = 1024.0 * 1024.0 * 1024.0;

// Estimates what `cfg` on `decomp` costs on each rank of `launch` with steps per exchange `ks` (the
// given k, or every k auto measures: fields for the deepest, a plan for each) and the node limit;
// throws InputError at grid.n or halo.steps_per_exchange (whichever dominates) with the estimate when
// the node total exceeds the limit or the walk exceeds kMaxWalkCells. The same on every rank. Collective.
ResourceEstimate check_resources(const core::Config& cfg, int fields, int state_fields, const core::Decomposition& decomp, MPI_Comm launch,
                                 const std::vector<int>& ks);

// halo.steps_per_exchange auto tries a deeper k only while a rank's memory with it stays within this
// factor of its memory with k = 1: the fields are laid out for the deepest candidate for the whole run
// (issue 40).
constexpr double kAutoMemoryGrowth = 1.15;

// The candidates `ks` (increasing, starting at 1) without the deepest ones for which the process
// (its resident memory before the run's allocations, the largest of any rank of `launch`, plus the
// estimate for that k alone) exceeds kAutoMemoryGrowth times the same with k = 1. The same on every
// rank. Collective.
std::vector<int> within_memory_growth(const core::Config& cfg, int fields, int state_fields, const core::Decomposition& decomp,
                                      MPI_Comm launch, std::vector<int> ks);

// The estimate as --dry-run prints it ("# resources" and one line per item).
std::string resources_text(const ResourceEstimate& e);

}  // namespace cartex::app
