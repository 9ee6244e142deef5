#pragma once
// Backend "p2p": every non-empty block packed by a Kokkos kernel into one contiguous buffer,
// MPI_Irecv/MPI_Isend per block (tag = block index, so repeated neighbors stay apart), unpacked by a
// Kokkos kernel. MPI sees host mirrors of the buffers (the same memory when the default memory space
// is host-accessible), so no device pointer reaches MPI.
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/kokkos_compat.hpp"
#include "cartex/halo/halo_plan.hpp"
#include "packing.hpp"

namespace cartex::detail {

// Point-to-point messages of a list of (rank, tag, cells) sends and receives, packed with Kokkos.
class PackedMessages {
 public:
  // One message: partner rank, tag, and the cells (view indices) it carries.
  struct Message {
    int rank;
    int tag;
    const std::vector<long>* cells;
  };
  PackedMessages(std::vector<Message> sends, std::vector<Message> recvs, MPI_Comm comm);
  ~PackedMessages();
  PackedMessages(const PackedMessages&) = delete;
  PackedMessages& operator=(const PackedMessages&) = delete;

  // Posts the receives, packs and posts the sends.
  void start(const Field& f);
  // Waits for every message and unpacks the receives into f.
  void finish(Field& f);
  long messages() const { return static_cast<long>(sends_.size()); }
  long cells() const { return send_list_.size(); }  // no padding here: the buffer holds only cells

 private:
  std::vector<Message> sends_, recvs_;
  MPI_Comm comm_;
  PackList send_list_, recv_list_;
  Kokkos::View<double*> send_buf_, recv_buf_;
  host_mirror_t<Kokkos::View<double*>> send_host_, recv_host_;
  std::vector<MPI_Request> requests_;
  bool active_ = false;
};

// The p2p plan.
class P2PHaloPlan final : public HaloPlan {
 public:
  P2PHaloPlan(const HaloPattern& pattern, MPI_Comm comm);
  void start(Field& f) override { messages_.start(f); }
  void finish(Field& f) override { messages_.finish(f); }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "p2p"; }

 private:
  static std::vector<PackedMessages::Message> blocks(const HaloPattern& p, bool send);
  HaloPattern pattern_;
  PackedMessages messages_;
  HaloStats stats_;
};

}  // namespace cartex::detail
