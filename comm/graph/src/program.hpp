// An executable schedule (the "S" of HiPC'17 Algorithm 3): phases of pack/copy operations,
// messages in flight together, a wait, and unpack operations. Owns its staging memory, its
// persistent requests and the datatypes its operations use.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace cartex::graph::detail {

// MPI_Pack of a user block into the staging memory at `offset` (`bytes` on the wire).
struct PackOp {
  const void* buf;
  int count;
  MPI_Datatype type;
  std::size_t offset;
  int bytes;
};

// MPI_Unpack of `bytes` staged at `offset` into a user block.
struct UnpackOp {
  std::size_t offset;
  int bytes;
  void* buf;
  int count;
  MPI_Datatype type;
};

// A copy inside the staging memory (a friend's block into a combined message).
struct CopyOp {
  std::size_t from;
  std::size_t to;
  std::size_t bytes;
};

// One message of a phase, staged at `offset`.
struct Transfer {
  int peer;
  int tag;
  std::size_t offset;
  int bytes;
};

// Operations between two waits: packs and copies, then all messages, then unpacks.
struct Phase {
  std::vector<PackOp> packs;
  std::vector<CopyOp> copies;
  std::vector<Transfer> sends;
  std::vector<Transfer> recvs;
  std::vector<UnpackOp> unpacks;
};

// The schedule bound to its buffers; persistent requests are created once here.
class Program {
 public:
  Program(MPI_Comm comm, std::vector<Phase> phases, std::size_t staging_bytes, std::vector<MPI_Datatype> owned_types);
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  ~Program();

  // Runs all phases in order.
  void execute();
  // Messages sent per execution.
  int messages() const;
  // Bytes sent per execution.
  std::size_t bytes() const;

 private:
  MPI_Comm comm_;
  std::vector<Phase> phases_;
  std::vector<char> staging_;
  std::vector<std::vector<MPI_Request>> requests_;
  std::vector<MPI_Datatype> owned_types_;
};

}  // namespace cartex::graph::detail
