#pragma once
// Internal: the blocks of a halo pattern as alltoallw arguments over the field's own memory
// (zero-copy): one hindexed datatype per block, displacements 0 relative to the view's first element.
#include <mpi.h>

#include <vector>

#include "cartex/halo/halo_pattern.hpp"
#include "mpi_types.hpp"

namespace cartex::detail {

// Padding of every block to a slot size that is the same for its index on every process (message
// combining routes blocks through processes whose own block of that index has another size, ICPP'19
// section 3.3). Padding cells are read from / written to scratch memory, never the field.
struct BlockPadding {
  std::vector<long> slots;   // slot size of block i (uniform_block_sizes)
  const double* base;        // the field's first element
  std::vector<double>* scratch;  // resized as needed
};

// Counts and datatypes of every block of a pattern; `compact` keeps only blocks whose partner exists
// (the argument order of MPI dist-graph neighborhood collectives), otherwise one entry per block.
struct ZeroCopyBlocks {
  std::vector<int> send_counts, recv_counts;
  std::vector<MPI_Aint> send_displs, recv_displs;
  std::vector<MPI_Datatype> send_types, recv_types;
  std::vector<OwnedType> owned;

  ZeroCopyBlocks(const HaloPattern& p, bool compact, const BlockPadding* padding = nullptr);
};

// The largest size of each block index over every rank of comm (collective).
std::vector<long> uniform_block_sizes(const HaloPattern& p, MPI_Comm comm);

// Throws std::invalid_argument when `backend` would hand device memory to MPI.
void require_host_accessible_memory(const std::string& backend);

}  // namespace cartex::detail
