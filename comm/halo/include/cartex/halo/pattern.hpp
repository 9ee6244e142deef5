#pragma once
// The halo pattern of one rank: a value computed once from the geometry (decomposition, stencil, steps
// per exchange k), that every backend turns into its own exchange plan.
//
// Sign convention. The neighborhood is identical on every rank (a Cartesian neighborhood in the sense
// of ICPP'19): block i has offset o_i = -(owner offset i). We SEND block i to the TARGET at +o_i (the
// cells of our block lying in its halo) and RECEIVE block i from the SOURCE at -o_i (our halo cells
// that it owns):
//
//      source (me - o)            me              target (me + o)
//     +---------------+    +---------------+    +---------------+
//     |        ###### | -> | ::::   ###### | -> | ::::          |      ###  send cells of block i
//     +---------------+    +---------------+    +---------------+      :::  recv cells of block i
//        its send cells     recv     send          its recv cells
//        = our recv cells                          = our send cells
//
// A block may be empty on some ranks (uneven blocks, boundaries). The send cells of a block whose
// target is MPI_PROC_NULL (outside a non-periodic domain) are empty, and so are the recv cells of a
// block whose source is; sends() and recvs() list the blocks whose partner exists, once for all plans.
//
// Cells are linear indices into the field's view (LayoutRight, (z, y, x)), listed in the z, y, x order
// of the unwrapped global cells, which sender and receiver share.
//
// Deep halos (EuroMPI'15 section 2): after an exchange, step j = 1 .. k updates the cells of
// B + S^(k-j) inside the domain (the ghost-zone cells whose dependencies are all present; step k
// updates the block B itself); with overlap, step 1 is split into `inner` (reads no halo cell the
// exchange writes) and `rim`, or, for plans whose self blocks (periodic dimensions of one process) are
// complete when start() returns, into `remote_inner` (reads no halo cell another rank sends) and
// `remote_rim`.
#include <mpi.h>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/halo/cell_list.hpp"
#include "cartex/halo/geometry.hpp"

namespace cartex::halo {

// One block of the neighborhood: what we send to the target and receive from the source.
struct Block {
  core::Offset offset{};             // o: target at +o, source at -o (the negated owner offset)
  int target = MPI_PROC_NULL;  // rank at +offset (MPI_PROC_NULL outside a non-periodic domain)
  int source = MPI_PROC_NULL;  // rank at -offset
  CellList send;                // our cells in the target's halo (empty without a target)
  CellList recv;                // our halo cells the source owns (empty without a source)
};

// One direction of a block whose partner exists: the block's index, the partner and the cells.
struct BlockPart {
  int block;
  int rank;
  const CellList* cells;
};

// One rank's halo pattern; see the header comment.
struct HaloPattern {
  int rank = 0;
  core::FieldLayout layout;
  std::vector<Block> blocks;                 // one per offset, the same offsets on every rank
  std::vector<std::vector<core::LineRun>> update;  // update[j - 1]: cells updated in step j
  std::vector<core::LineRun> inner, rim;                // step 1 split for overlap (see above)
  std::vector<core::LineRun> remote_inner, remote_rim;  // the same against the halo other ranks send

  // The blocks with a target, in block order (the out-neighbors of a dist graph).
  std::vector<BlockPart> sends() const;
  // The blocks with a source, in block order (the in-neighbors of a dist graph).
  std::vector<BlockPart> recvs() const;
  // Cells sent per exchange, and non-empty messages to real neighbors.
  long send_cells() const;
  long send_messages() const;
};

// The part of `p` an exchange plan keeps (a plan outlives the pattern it is made from): rank, layout
// and blocks, without the update lists, which are the stepper's (copied, they were the larger part
// of a plan's memory with deep halos: issue 40).
HaloPattern exchange_part(const HaloPattern& p);

// Builds rank's pattern from the geometry (the geometry is not kept).
HaloPattern make_halo_pattern(const HaloGeometry& geo, int rank);
// The same in a view with a halo at least as deep as the geometry's on every side (`view_halo`): the
// cells outside the geometry's halo are neither exchanged nor updated. halo.steps_per_exchange: auto
// runs every k it measures on fields laid out for the deepest (apps/driver/src/auto_stepper.hpp).
HaloPattern make_halo_pattern(const HaloGeometry& geo, int rank, const core::HaloWidths& view_halo);

// The steps of a whole cycle split for a blocked pass that runs while the exchange is in flight
// (overlap with temporal blocking). Step j's inner cells lie at least D_j cells inside every face
// whose halo the exchange writes (remote_only: only the faces another rank lies across); D_j grows
// by the stencil's reach r per step, so inner step j reads only inner cells of step j - 1 (D_1 = r:
// step 1 reads no halo cell in flight). Seen across one such face (depth = cells from the face):
//
//   depth:   0        r        2r       3r                       D_j = j r
//   step 3   rim rim rim rim rim rim | inner ...                 rim_j: depth < D_j
//   step 2   rim rim rim rim | inner inner ...                   inner_j: depth >= D_j
//   step 1   rim rim | inner inner inner ...
//   halo (in flight) | block
//
// Run in the order: inner steps 1..n (one blocked pass), finish, then rim steps 1..n one by one.
// That gives the single steps' bits: rim step j reads depth < D_j + r <= D_{j+1}, which inner step
// j + 1 (writing the same buffer as step j - 1) never touched. Step 2 writes the exchanged field
// while the exchange is in flight: only for plans that copy their block at start
// (HaloPlan::block_copied_at_start). (For the others the even steps would have to stay behind the
// send cells, D_j >= w + (j - 2) r on every face; measured 1.6-1.7x slower than without overlap,
// docs/performance.md, so they overlap step 1 only.)
//
// Step j's inner cells are those of update[j - 1] inside a box, so the split keeps the box (in view
// indices, clipped to the view: kernels::CycleRegions clips the cycle's own lists to it) and lists
// only the rim, the rest of update[j - 1] (issue 40: a second list of the cycle's cells was the
// largest allocation of a run's set-up), cut from update[j - 1]'s own runs (a sweep of the halo cells
// took 10 ms of a 256^3 run's first cycles, where auto tries overlap).
struct CycleSplit {
  std::vector<core::Box> inner;                 // [j - 1]: step j's inner box, view indices
  std::vector<std::vector<core::LineRun>> rim;  // [j - 1]: update[j - 1]'s cells outside it
};
CycleSplit split_cycle(const HaloGeometry& geo, const HaloPattern& p, bool remote_only);

// Linear view index of view cell (i, j, k) in `layout`.
inline long linear_index(const core::FieldLayout& l, long i, long j, long k) { return (k * l.extent(1) + j) * l.extent(0) + i; }

}  // namespace cartex::halo
