#pragma once
// The forwarding schedule (backend cart_forwarding): the open problem of ICPP'19 section 3.4,
// "combining schedules to avoid communicating overlapping data blocks", solved for halos by routing
// every halo cell dimension by dimension and letting each process forward what it received.
//
//   phase x                 phase y                        phase z (3D)
//   +---+---+---+           +---+---+---+                  the z faces carry x and y halo
//   |   |   |   |           |   | ^ |   |  y faces carry   cells too, so edges and corners
//   +---+---+---+           +---+-|-+---+  the x halo      arrive without messages to
//   | <-|-B-|-> |  x faces  |   | B |   |  columns just    diagonal neighbors
//   +---+---+---+           +---+-|-+---+  received
//   |   |   |   |           |   | v |   |
//   +---+---+---+           +---+---+---+
//
// A halo cell of process R owned by R + v travels owner -> owner - v_x e_x -> owner - v_x e_x -
// v_y e_y -> R. In phase d process X receives from X + a e_d every cell whose route crosses that link
// in phase d: the cells of the halos of the processes R = X - (later components) whose owner offset
// has d-component a and the given later components. Each cell crosses each link at most once, so a
// 3D box halo of width w around an n^3 block costs 6wn^2 + 12w^2n + 8w^3 cells in 6 messages (per-hop
// alltoall combining: 6wn^2 + 24w^2n + 24w^3). Every forwarded cell lies inside the receiving
// process's view (its bounding-box halo), so it is stored in the field itself.
#include <vector>

#include "cartex/halo/geometry.hpp"
#include "cartex/halo/pattern.hpp"

namespace cartex::halo {

// One message of a forwarding phase: partner rank (MPI_PROC_NULL if outside the mesh), tag (its index
// within the phase; each phase runs on its own communicator) and cells.
struct ForwardingMessage {
  int rank = MPI_PROC_NULL;
  int tag = 0;
  CellList cells;  // view indices, in the z, y, x order of unwrapped global cells
};

// The messages of one dimension's phase.
struct ForwardingPhase {
  std::vector<ForwardingMessage> sends, recvs;
};

// All phases of one rank, in dimension order: one per dimension of the grid on every rank, those
// without messages included (each phase owns a communicator, and making one is collective).
std::vector<ForwardingPhase> make_forwarding_schedule(const HaloGeometry& geo, const HaloPattern& pattern);

}  // namespace cartex::halo
