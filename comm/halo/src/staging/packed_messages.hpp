#pragma once
// Internal: point-to-point messages on staged buffers (p2p, and each phase of cart_forwarding):
// MPI_Irecv per receive, Kokkos pack, MPI_Isend per send, then MPI_Waitall and Kokkos unpack. The
// messages travel on a private duplicate of the caller's communicator, so tags only tell apart the
// messages of this one exchange (p2p: 0, one message per partner; cart_forwarding: one per direction).
#include <mpi.h>

#include <vector>

#include "cartex/core/field.hpp"
#include "mpi_check.hpp"
#include "staging/staged_buffers.hpp"

namespace cartex::halo {

// One message: partner rank, tag, and the cells (view indices) it carries.
struct Message {
  int rank;
  int tag;
  const std::vector<long>* cells;
};

// The messages of one exchange, packed with Kokkos.
class PackedMessages {
 public:
  PackedMessages(std::vector<Message> sends, std::vector<Message> recvs, MPI_Comm comm);
  ~PackedMessages();
  PackedMessages(const PackedMessages&) = delete;
  PackedMessages& operator=(const PackedMessages&) = delete;

  // Posts the receives, packs and posts the sends.
  void start(const core::Field& f);
  // Waits for every message and unpacks the receives into f.
  void finish(core::Field& f);
  long messages() const { return static_cast<long>(sends_.size()); }
  long cells() const { return buffers_.sends().size(); }  // no padding here: the buffer holds only cells

 private:
  std::vector<Message> sends_, recvs_;
  OwnedComm comm_;
  StagedBuffers buffers_;
  std::vector<MPI_Request> requests_;
  StartFinish state_;
};

}  // namespace cartex::halo
