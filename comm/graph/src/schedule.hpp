// Algorithm 3 of HiPC'17: from a pattern and the blocks of one call to an executable Program.
#pragma once

#include <mpi.h>

#include <map>
#include <memory>
#include <vector>

#include "cartex/graph/pattern.hpp"
#include "program.hpp"

namespace cartex::graph::detail {

// A user block: `count` elements of `type` at `buf`, `bytes` on the wire.
struct Piece {
  void* buf;
  int count;
  MPI_Datatype type;
  int bytes;
};

// What one call moves at this process, independent of the pattern.
struct CallBlocks {
  // allgather(v): the single block `own` goes to every destination.
  bool shared_send = false;
  Piece own{};
  // alltoallv: the blocks for each distinct destination, in the order of its repeated edges.
  std::map<int, std::vector<Piece>> send_to;
  // allgather(v): every receive block of a source gets the source's one block; alltoallv: the
  // source's blocks fill its receive blocks in order.
  bool replicate_recv = false;
  // The receive blocks of each distinct source, in the order of its repeated edges.
  std::map<int, std::vector<Piece>> recv_from;
  // allgather: a friend's block has this process's size (same recvcount at a common neighbor),
  // so no size hand-shake with friends is needed.
  bool friend_sizes_known = false;
};

// Builds the schedule; `owned_types` (duplicates used by `blocks`) pass to the program.
std::unique_ptr<Program> build_schedule(const Pattern& pattern, const CallBlocks& blocks,
                                        std::vector<MPI_Datatype> owned_types);

}  // namespace cartex::graph::detail
