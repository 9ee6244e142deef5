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
//
// N fields together (issue 37): MPI is handed field 0's first element; block i's datatype is an MPI
// struct of the one-field cells type of block i once per field, at byte displacement (address of field
// q - address of field 0), then the padding of every field in one piece (N times the one-field pad
// regions above, so the message is N slots long, the same signature on every rank):
//
//   type i = struct { cells_i @ 0 | cells_i @ (f1 - f0) | ... | cells_i @ (fN-1 - f0) | N pad_i @ scratch }
//
//   message of block i:  | f0 cells | f1 cells | ... | fN-1 cells | N (slot - cells) padding |
//
// The types depend on the fields' addresses, so a plan builds them per address tuple (u / u_next
// double buffering: a few tuples) and keeps them.
#include <mpi.h>

#include <vector>

#include "cartex/halo/pattern.hpp"
#include "cartex/halo/plan.hpp"
#include "staging/datatypes.hpp"

namespace cartex::halo {

// Padding of every block to a slot size that is the same for its index on every process. Padding
// cells are read from / written to scratch memory, never the field.
struct BlockPadding {
  std::vector<long> slots;       // slot size of block i (uniform_block_sizes)
  const double* base;            // the (first) field's first element
  std::vector<double>* scratch;  // resized as needed
};

// Counts and datatypes of every block of a pattern; `compact` keeps only blocks whose partner exists
// (the argument order of MPI dist-graph neighborhood collectives), otherwise one entry per block.
struct ZeroCopyBlocks {
  std::vector<int> send_counts, recv_counts;
  std::vector<MPI_Aint> send_displs, recv_displs;
  std::vector<MPI_Datatype> send_types, recv_types;
  std::vector<OwnedType> owned;

  // `fields`: the first elements of the N fields exchanged together (fields[0] the buffer MPI is
  // handed); empty or one: one field, displacement 0 (the types do not depend on its address).
  ZeroCopyBlocks(const HaloPattern& p, bool compact, const BlockPadding* padding = nullptr,
                 const std::vector<const double*>& fields = {});
};

// Byte displacements of fields[q] from fields[0], q >= 1 (MPI_Get_address, MPI_Aint_diff), into `out`
// (its storage reused: no allocation per exchange): the key of a set's datatypes when they do not
// depend on field 0's own address.
void field_displacements(const std::vector<const double*>& fields, std::vector<MPI_Aint>& out);

// The first elements of the fields of a set, into `out` (its storage reused).
void field_bases(const FieldSet& f, std::vector<const double*>& out);

// The largest size of each block index over every rank of comm (collective).
std::vector<long> uniform_block_sizes(const HaloPattern& p, MPI_Comm comm);

}  // namespace cartex::halo
