// The renaming idea of NESUS'14 carried to the Cartesian process grid: choose which rank holds
// which grid position so that every node holds a compact sub-block of the grid, and count the
// inter-node messages and bytes of a halo exchange with and without that reordering.
// Plain vectors in, counts out: no dependence on comm/halo.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "cartex/ranks/layout.hpp"
#include "cartex/ranks/traffic.hpp"

namespace cartex::ranks {

// One message of a halo exchange: every process sends `bytes` to the process at `offset`
// (one entry per dimension; dimension order x, y, z).
struct HaloNeighbor {
  std::vector<int> offset;
  std::int64_t bytes = 0;
};

// Which rank holds which grid position. Grid positions are numbered row-major with the last
// dimension fastest, as MPI_Cart_create(reorder = 0) numbers ranks (docs/design.md).
struct GridAssignment {
  std::vector<int> block;         // node sub-block extent per dimension; empty: identity kept
  std::vector<int> rank_of_cell;  // rank_of_cell[g]: the rank holding grid position g
};

// The identity: grid position g is held by rank g.
GridAssignment identity_assignment(const std::vector<int>& dims);

// Among all node sub-blocks b (b[i] divides dims[i], product = ranks per node) and the identity,
// the assignment with the fewest inter-node bytes (then messages) for `neighbors`; node k takes
// block k in row-major order and its ranks fill the block row-major. Layouts with unequal nodes,
// or no fitting block, keep the identity.
GridAssignment node_block_assignment(const std::vector<int>& dims, const std::vector<int>& periods,
                                     const std::vector<HaloNeighbor>& neighbors, const NodeLayout& layout);

// Messages and bytes of one halo exchange: every grid position sends to every neighbor offset
// that exists (periodic dimensions wrap, non-periodic ones drop positions outside the grid);
// a message crosses nodes when the two holding ranks are on different nodes.
Traffic halo_traffic(const std::vector<int>& dims, const std::vector<int>& periods,
                     const std::vector<HaloNeighbor>& neighbors, const NodeLayout& layout,
                     const GridAssignment& assignment);

// A communicator of the same processes in which rank g holds grid position g of `assignment`
// (MPI_Comm_split with the position as key), owned: MPI_Cart_create(reorder = 0) on it gives
// the reordered grid. Collective.
class ReorderedComm {
 public:
  ReorderedComm(MPI_Comm comm, const GridAssignment& assignment);
  ReorderedComm(const ReorderedComm&) = delete;
  ReorderedComm& operator=(const ReorderedComm&) = delete;
  ~ReorderedComm();
  // The reordered communicator.
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace cartex::ranks
