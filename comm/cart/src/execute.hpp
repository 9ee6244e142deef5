// Executing a bound schedule on a call layout, phase by phase with all rounds of a phase in flight
// (Listing 5, ICPP'19), in two ways that move the same blocks in the same rounds:
//   zero-copy: each round is one message described by struct datatypes over absolute addresses
//              (MPI_BOTTOM), so MPI reads and writes the blocks in place;
//   packed:    each round's blocks are copied into one contiguous byte buffer and out again, which
//              is cheaper for small blocks than building and interpreting a struct datatype.
#pragma once

#include <mpi.h>

#include <vector>

#include "bind.hpp"
#include "layout.hpp"

namespace cartex::cart::detail {

// Zero-copy execution; owns the committed round datatypes.
class ZeroCopyRun {
 public:
  ZeroCopyRun(const BoundSchedule& schedule, const CallLayout& layout);
  ZeroCopyRun(const ZeroCopyRun&) = delete;
  ZeroCopyRun& operator=(const ZeroCopyRun&) = delete;
  ~ZeroCopyRun();
  // Runs all phases on comm, then the local copies.
  void execute(MPI_Comm comm);

 private:
  const BoundSchedule& s_;
  const CallLayout& layout_;
  // Per phase and message: the datatype sent (a struct, or the block's own type when a message
  // carries one block, then owned_ is false and nothing is freed).
  struct Typed {
    void* addr;
    int count;
    MPI_Datatype type;
    bool owned;
  };
  std::vector<std::vector<Typed>> send_;
  std::vector<std::vector<Typed>> recv_;
  std::vector<MPI_Request> requests_;
};

// Packed execution (every block must be contiguous); packs in the arena when given (scratch a
// neighborhood reuses across blocking calls), else in a buffer of its own.
class PackedRun {
 public:
  PackedRun(const BoundSchedule& schedule, const CallLayout& layout, std::vector<char>* arena = nullptr);
  // Runs all phases on comm, then the local copies.
  void execute(MPI_Comm comm);

 private:
  const BoundSchedule& s_;
  const CallLayout& layout_;
  std::vector<std::vector<MPI_Aint>> send_at_, recv_at_, send_bytes_, recv_bytes_;  // per phase, message
  std::vector<char> own_;
  std::vector<char>* buffer_;
  std::vector<MPI_Request> requests_;
};

// Struct datatype over the absolute addresses of blocks (committed; MPI_Type_free it).
MPI_Datatype struct_type(const std::vector<const Block*>& blocks);

// Copies the transfers of a phase whose partner is this process.
void run_self_copies(const BoundPhase& phase, const CallLayout& layout);

// Copies the schedule's local blocks (zero offset, repeated allgather offsets).
void run_local_copies(const BoundSchedule& schedule, const CallLayout& layout);

}  // namespace cartex::cart::detail
