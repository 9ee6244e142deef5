#pragma once
// Internal: point-to-point messages on staged buffers (p2p, and each phase of cart_forwarding):
// MPI_Irecv per receive, Kokkos pack, MPI_Isend per send, then MPI_Testall (progress) or MPI_Waitall
// (finish) and Kokkos unpack (staging/single_phase.hpp). The
// messages travel on a private duplicate of the caller's communicator, so tags only tell apart the
// messages of this one exchange (p2p: 0, one message per partner; cart_forwarding: one per direction).
#include <mpi.h>

#include <vector>

#include "cartex/core/field.hpp"
#include "owned_handle.hpp"
#include "staging/single_phase.hpp"
#include "staging/staged_buffers.hpp"

namespace cartex::halo {

// One message: partner rank, tag, and the cells (view indices) it carries.
struct Message {
  int rank;
  int tag;
  const CellList* cells;
};

// The messages of one exchange, packed with Kokkos.
class PackedMessages {
 public:
  // Room for `fields` fields per exchange: each message carries the listed cells of every field
  // (pack_list.hpp).
  PackedMessages(std::vector<Message> sends, std::vector<Message> recvs, MPI_Comm comm, Staging staging, int fields = 1);
  ~PackedMessages();
  PackedMessages(const PackedMessages&) = delete;
  PackedMessages& operator=(const PackedMessages&) = delete;

  // Posts the receives, packs the fields f and posts the sends.
  void start(const FieldSet& f);
  // Non-blocking: when every message is complete, unpacks the receives into the started field.
  void progress() { phase_.progress(requests_, buffers_); }
  // True when nothing is in flight (the receives are unpacked, or nothing was started).
  bool done() const { return phase_.done(); }
  // Waits for every message still in flight, unpacks, and ends the exchange.
  void finish() { phase_.finish(requests_, buffers_); }
  long messages() const { return static_cast<long>(sends_.size()); }
  long cells() const { return buffers_.sends().size(); }  // every field's; no padding here: the buffer holds only cells

 private:
  std::vector<Message> sends_, recvs_;
  OwnedComm comm_;
  StagedBuffers buffers_;
  std::vector<MPI_Request> requests_;
  SinglePhase phase_;
};

}  // namespace cartex::halo
