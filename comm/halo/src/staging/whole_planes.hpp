#pragma once
// Internal: p2p's messages across the split dimension of a slab decomposition, sent field to field as
// whole view planes (issue 40). On a grid split only along its last dimension s (z in 3D, y in 2D;
// ProcessGrid::create splits that one first), every other dimension one periodic process, all the
// halo a rank receives from across s lies in w contiguous view planes, and its neighbour's w planes
// next to the face hold it, the x/y ghost cells included once the self copies have filled them:
//
//   rank r + 1    | gx | owned x, y    | gx |  plane lo - 1     <- MPI_Irecv into the field (tag 1)
//                 | gx |               | gx |  plane lo - w        (w = the halo's depth below)
//                 ==================================== face
//   rank r        | gx | owned x, y    | gx |  plane hi - 1     -> MPI_Isend from the field (tag 1)
//   (self copies  | gx |               | gx |  plane hi - w        after the self copies
//    fill gx)
//
// The self copy gives ghost (x - n_x, y, z) the value of owned (x, y, z), which is what block
// (+1, 0, +1) sends to the rank above; so one message carries the face and every edge and corner
// block with the same s offset: no pack, no unpack, and on shared memory one copy (CMA) instead of
// three. The self copy fills the sender's own halo, which need not hold every ghost the planes carry
// for the receiver: an asymmetric stencil (offsets (-1, +1) and (+1, -1) only) reads its x ghosts in
// other rows than its neighbour's corners come from (campaign seed 1142 case 312). So the planes'
// carried ghosts (carried_from/carried_to) join the self copy. Plane cells outside the exact halo (a
// deep star halo's diamond leaves out the planes' corners) travel too: no step reads them.
//
// The rule is decided from the geometry and the view alone, so every rank reaches the same answer
// without communicating: s split into at least two processes, every other used dimension one
// periodic process, every block at least the halo deep along s (the planes come from the adjacent
// rank only), and MPI handed the field's own memory (comm.gpu_aware_mpi: direct, zero copy allowed).
// Messages go down with tag 1 and up with tag 2 (p2p's packed messages use tag 0); N fields travel in
// one message (an hindexed datatype over the fields' planes, made per exchange).
#include <utility>
#include <vector>

#include "cartex/halo/backends.hpp"
#include "cartex/halo/pattern.hpp"

namespace cartex::halo {

// One message of whole planes: partner rank, tag, and the view cells [first, first + count).
struct PlaneRange {
  int rank;
  int tag;
  long first;
  long count;
};

// Where a rank's whole-plane messages go.
struct WholePlanes {
  bool applies = false;  // the slab rule holds (the same on every rank)
  int dim = 0;           // s
  std::vector<PlaneRange> sends, recvs;
  // The ghost cells of the planes sent that hold an edge or corner block's cells for the receiver
  // (to), and those block cells, their periodic images (from); each ghost once.
  CellList carried_from, carried_to;

  // `p` without the blocks the planes carry (those with a non-zero offset along s): what p2p packs.
  HaloPattern rest(const HaloPattern& p) const;
  // Cells sent per exchange (one field).
  long send_cells() const;
  // The self copy `from` -> `to` (one list of pairs) with the carried ghosts it does not fill yet.
  std::pair<CellList, CellList> with_carried(const CellList& from, const CellList& to) const;
};

// The whole planes of `in` (in.pattern's view, in.geometry's decomposition and halo), or none
// (applies false) when the rule does not hold or no geometry was given. Checks that every cell of the
// blocks they replace lies in them (cartex::core::Error otherwise: a bug).
WholePlanes whole_planes(const PlanInputs& in);

}  // namespace cartex::halo
