#include "p2p_plan.hpp"

#include "cartex/core/error.hpp"

namespace cartex {

namespace {

using Range3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;

Range3 box_range(const Box& b) { return Range3({b.lo[2], b.lo[1], b.lo[0]}, {b.hi(2), b.hi(1), b.hi(0)}); }

void pack(const FieldView& v, const Box& b, const Kokkos::View<double*>& buf, long offset) {
  const long ny = b.n[1], nx = b.n[0];
  const long z0 = b.lo[2], y0 = b.lo[1], x0 = b.lo[0];
  Kokkos::parallel_for(
      "cartex::p2p_pack", box_range(b), KOKKOS_LAMBDA(long k, long j, long i) {
        buf(offset + ((k - z0) * ny + (j - y0)) * nx + (i - x0)) = v(k, j, i);
      });
}

void unpack(const FieldView& v, const Box& b, const Kokkos::View<double*>& buf, long offset) {
  const long ny = b.n[1], nx = b.n[0];
  const long z0 = b.lo[2], y0 = b.lo[1], x0 = b.lo[0];
  Kokkos::parallel_for(
      "cartex::p2p_unpack", box_range(b), KOKKOS_LAMBDA(long k, long j, long i) {
        v(k, j, i) = buf(offset + ((k - z0) * ny + (j - y0)) * nx + (i - x0));
      });
}

}  // namespace

P2PHaloPlan::P2PHaloPlan(const HaloRegions& regions, MPI_Comm comm) : regions_(regions), comm_(comm) {
  long send_total = 0, recv_total = 0;
  for (const auto& n : regions.neighbors) {
    if (n.rank == MPI_PROC_NULL) continue;
    sends_.push_back({n.rank, n.send_tag, n.send, send_total});
    recvs_.push_back({n.rank, n.recv_tag, n.recv, recv_total});
    send_total += n.send.cells();
    recv_total += n.recv.cells();
  }
  send_buf_ = Kokkos::View<double*>("cartex::p2p_send", send_total);
  recv_buf_ = Kokkos::View<double*>("cartex::p2p_recv", recv_total);
  send_host_ = Kokkos::create_mirror_view(send_buf_);
  recv_host_ = Kokkos::create_mirror_view(recv_buf_);
  requests_.assign(sends_.size() + recvs_.size(), MPI_REQUEST_NULL);
  stats_.messages = static_cast<long>(sends_.size());
  stats_.bytes = send_total * static_cast<long>(sizeof(double));
}

P2PHaloPlan::~P2PHaloPlan() {
  // A plan destroyed mid-exchange must not leave MPI writing into freed buffers.
  if (active_) MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

void P2PHaloPlan::check_layout(const Field& f) const {
  require(f.layout.box == regions_.layout.box && f.layout.halo == regions_.layout.halo,
          "P2PHaloPlan: the field's layout differs from the one the plan was built for");
}

void P2PHaloPlan::start(Field& f) {
  check_layout(f);
  require(!active_, "P2PHaloPlan::start: the previous exchange was not finished");
  for (size_t m = 0; m < recvs_.size(); ++m) {
    const auto& r = recvs_[m];
    MPI_Irecv(recv_host_.data() + r.offset, static_cast<int>(r.box.cells()), MPI_DOUBLE, r.rank, r.tag, comm_,
              &requests_[m]);
  }
  for (const auto& s : sends_) pack(f.view, s.box, send_buf_, s.offset);
  Kokkos::fence();
  Kokkos::deep_copy(send_host_, send_buf_);
  for (size_t m = 0; m < sends_.size(); ++m) {
    const auto& s = sends_[m];
    MPI_Isend(send_host_.data() + s.offset, static_cast<int>(s.box.cells()), MPI_DOUBLE, s.rank, s.tag, comm_,
              &requests_[recvs_.size() + m]);
  }
  active_ = true;
}

void P2PHaloPlan::finish(Field& f) {
  check_layout(f);
  require(active_, "P2PHaloPlan::finish: no exchange was started");
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  active_ = false;
  Kokkos::deep_copy(recv_buf_, recv_host_);
  for (const auto& r : recvs_) unpack(f.view, r.box, recv_buf_, r.offset);
  Kokkos::fence();
}

}  // namespace cartex
