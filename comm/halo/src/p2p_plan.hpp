#pragma once
// Backend "p2p": pack each needed region with a Kokkos kernel into one contiguous buffer,
// MPI_Irecv/MPI_Isend per neighbor, unpack. MPI sees host mirrors of the buffers (the same memory
// when the default memory space is host-accessible), so no device pointer reaches MPI.
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/halo/halo_plan.hpp"

namespace cartex {

// The p2p plan; see the header comment.
class P2PHaloPlan final : public HaloPlan {
 public:
  P2PHaloPlan(const HaloRegions& regions, MPI_Comm comm);
  ~P2PHaloPlan() override;
  P2PHaloPlan(const P2PHaloPlan&) = delete;
  P2PHaloPlan& operator=(const P2PHaloPlan&) = delete;

  void start(Field& f) override;
  void finish(Field& f) override;
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "p2p"; }

 private:
  // One message: a box of the field and its slice [offset, offset + box.cells()) of a buffer.
  struct Message {
    int rank, tag;
    Box box;
    long offset;
  };

  void check_layout(const Field& f) const;

  HaloRegions regions_;
  MPI_Comm comm_;
  std::vector<Message> sends_, recvs_;
  Kokkos::View<double*> send_buf_, recv_buf_;
  Kokkos::View<double*>::HostMirror send_host_, recv_host_;
  std::vector<MPI_Request> requests_;
  HaloStats stats_;
  bool active_ = false;
};

}  // namespace cartex
