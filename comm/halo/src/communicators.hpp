#pragma once
// Internal: the communicators a plan creates for its own messages (checked, owned).
#include <mpi.h>

#include "owned_handle.hpp"

namespace cartex::halo {

struct HaloPattern;

// A private duplicate of `comm` (MPI_Comm_dup): the plan's messages cannot meet anyone else's.
OwnedComm duplicate(MPI_Comm comm);

// The dist-graph communicator of the pattern's existing blocks (in-neighbors in recvs() order,
// out-neighbors in sends() order), built by MPI_Dist_graph_create_adjacent.
OwnedComm block_graph(const HaloPattern& pattern, MPI_Comm comm);

}  // namespace cartex::halo
