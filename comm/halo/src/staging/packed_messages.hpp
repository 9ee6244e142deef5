#pragma once
// Internal: point-to-point messages on staged buffers (p2p, and each phase of cart_forwarding):
// MPI_Irecv per receive, Kokkos pack, MPI_Isend per send, then MPI_Testall (progress) or MPI_Waitall
// (finish) and Kokkos unpack (staging/single_phase.hpp). The
// messages travel on a private duplicate of the caller's communicator, so tags only tell apart the
// messages of this one exchange (p2p: 0, one message per partner; cart_forwarding: one per direction).
// p2p's whole planes (staging/whole_planes.hpp) go with them, field to field, their requests among
// the others': one test, one wait.
#include <mpi.h>

#include <vector>

#include "cartex/core/field.hpp"
#include "owned_handle.hpp"
#include "staging/single_phase.hpp"
#include "staging/staged_buffers.hpp"
#include "staging/whole_planes.hpp"

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
  // `planes`: whole-plane messages posted with the packed ones (their tags differ from theirs).
  PackedMessages(std::vector<Message> sends, std::vector<Message> recvs, MPI_Comm comm, Staging staging, int fields = 1,
                 WholePlanes planes = {});
  ~PackedMessages();
  PackedMessages(const PackedMessages&) = delete;
  PackedMessages& operator=(const PackedMessages&) = delete;

  // Posts the receives, packs the fields f and posts the sends (the whole planes read the fields
  // until the exchange completes).
  void start(const FieldSet& f);
  // Non-blocking: when every message is complete, unpacks the receives into the started field.
  void progress() { phase_.progress(requests_, buffers_); }
  // True when nothing is in flight (the receives are unpacked, or nothing was started).
  bool done() const { return phase_.done(); }
  // Started and not finished.
  bool active() const { return phase_.active(); }
  // Copies the planes it sends into one buffer inside start, so that the field may change while they
  // are in flight (true: the buffer is made; false: freed, the planes go from the field again). Only
  // while nothing is in flight.
  void copy_plane_sends(bool copy);
  bool copies_plane_sends() const { return plane_sends_.extent(0) > 0; }
  // Waits for every message still in flight, unpacks, and ends the exchange.
  void finish() { phase_.finish(requests_, buffers_); }
  long messages() const { return static_cast<long>(sends_.size()); }
  long cells() const { return buffers_.sends().size(); }  // every field's; no padding here: the buffer holds only cells

 private:
  // Posts the message of plane range r of every field of f (MPI_Isend or MPI_Irecv) into *request.
  void post_planes(const FieldSet& f, const PlaneRange& r, bool send, MPI_Request* request) const;
  // The plane sends' copies: every field's range of send m at offset (m's first) * fields + q * count.
  void copy_planes(const FieldSet& f) const;

  std::vector<Message> sends_, recvs_;
  WholePlanes planes_;
  OwnedComm comm_;
  StagedBuffers buffers_;
  std::vector<MPI_Request> requests_;
  SinglePhase phase_;
  Kokkos::View<double*> plane_sends_;  // copy_plane_sends: the planes sent, field after field per message
};

}  // namespace cartex::halo
