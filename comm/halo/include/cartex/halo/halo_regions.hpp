#pragma once
// Which cells a rank exchanges with which neighbor, derived from the stencil and the decomposition.
//
// A neighbor is a process offset s in {-1, 0, 1}^3 \ {0}. The halo region s of a rank (drawn for
// 2D, view coordinates) is filled by the neighbor at s with that neighbor's cells next to our face:
//
//          s=(-1,+1)      s=(0,+1)       s=(+1,+1)
//        +----------+-----------------+----------+
//        |  corner  |   face (+y)     |  corner  |  <- recv region (0,+1): halo.hi.y rows
//        +----------+-----------------+----------+
//        | face(-x) |  interior       | face(+x) |
//        |          |  [send boxes    |          |
//        |          |   hug the edge] |          |
//        +----------+-----------------+----------+
//        |  corner  |   face (-y)     |  corner  |
//        +----------+-----------------+----------+
//
// Region s is needed iff some stencil offset o has sign(o_d) == s_d in every dimension with s_d != 0
// (edges and corners only for stencils with diagonal offsets). We send to the neighbor at s the
// interior cells its region -s needs, and receive region s from it. Halos deeper than the smallest
// neighbor block would need neighbors at distance 2; that is comm/halo's deep-halo work, rejected here.
#include <mpi.h>

#include <vector>

#include "cartex/core/decomposition.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex {

// One neighbor of a rank: its process offset, rank, and the boxes (in view indices) to send and fill.
struct NeighborRegion {
  Offset offset{0, 0, 0};  // process offset s
  int rank = MPI_PROC_NULL;  // the process at s (MPI_PROC_NULL outside a non-periodic domain)
  Box send;  // our interior cells that the neighbor's region -s needs (view indices)
  Box recv;  // our halo region s (view indices)
  int send_tag = 0;  // tag of our message to `rank` (identifies s)
  int recv_tag = 0;  // tag of the message we receive from `rank` (identifies -s)
};

// Everything a halo plan needs: the field layout and the list of neighbor regions of one rank.
struct HaloRegions {
  FieldLayout layout;
  std::vector<NeighborRegion> neighbors;  // every needed s, including PROC_NULL ones
};

// The halo widths a stencil needs in a grid of dimension `dim` (none in z for 2D).
HaloWidths halo_widths(const Stencil& stencil, int dim);

// Derives the regions of `rank`; throws std::invalid_argument when a halo is wider than the smallest
// neighboring block in a dimension where neighbors exist (it would need distance-2 neighbors).
HaloRegions make_halo_regions(const Decomposition& decomp, int rank, const Stencil& stencil);

}  // namespace cartex
