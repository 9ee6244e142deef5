#pragma once
// Internal: the blocks of a halo pattern as alltoallw arguments over the field's own memory
// (zero-copy): one hindexed datatype per block, displacements 0 relative to the view's first element.
//
// With padding (message combining, ICPP'19 section 3.3) every block is its slot's size: the datatype
// of block i lists its cells in the field, then slots[i] - cells padding doubles in scratch memory
// (a separate allocation, addressed relative to the field's first element):
//
//   scratch: | send padding (shared, read only)  | recv pad 0 | recv pad 1 | ... | recv pad t-1 |
//            '- max over i of (slot - send cells) '- slot 0 - recv cells 0 ...
//
//   send type i = field cells of send i, then the first (slot - cells) doubles of the send padding
//   recv type i = field cells of recv i, then recv pad i (its own region: receives never overlap)
#include <mpi.h>

#include <vector>

#include "cartex/halo/pattern.hpp"
#include "staging/datatypes.hpp"

namespace cartex::halo {

// Padding of every block to a slot size that is the same for its index on every process. Padding
// cells are read from / written to scratch memory, never the field.
struct BlockPadding {
  std::vector<long> slots;       // slot size of block i (uniform_block_sizes)
  const double* base;            // the field's first element
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

}  // namespace cartex::halo
