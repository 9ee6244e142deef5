#include "p2p_plan.hpp"

#include "cartex/core/error.hpp"
#include "cartex/core/phase_profile.hpp"

namespace cartex::detail {

namespace {

std::vector<const std::vector<long>*> cell_lists(const std::vector<PackedMessages::Message>& m) {
  std::vector<const std::vector<long>*> out;
  for (const auto& x : m) out.push_back(x.cells);
  return out;
}

}  // namespace

PackedMessages::PackedMessages(std::vector<Message> sends, std::vector<Message> recvs, MPI_Comm comm)
    : sends_(std::move(sends)),
      recvs_(std::move(recvs)),
      comm_(comm),
      send_list_(cell_lists(sends_)),
      recv_list_(cell_lists(recvs_)),
      send_buf_("cartex::halo_send", send_list_.size()),
      recv_buf_("cartex::halo_recv", recv_list_.size()),
      send_host_(Kokkos::create_mirror_view(send_buf_)),
      recv_host_(Kokkos::create_mirror_view(recv_buf_)),
      requests_(sends_.size() + recvs_.size(), MPI_REQUEST_NULL) {}

PackedMessages::~PackedMessages() {
  // Never leave MPI writing into freed buffers.
  if (active_) MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

void PackedMessages::start(const Field& f) {
  require(!active_, "halo exchange started twice without finish");
  {
    PhaseScope post_receives(Phase::kHaloPost);
    for (size_t m = 0; m < recvs_.size(); ++m)
      MPI_Irecv(recv_host_.data() + recv_list_.offset(m), static_cast<int>(recv_list_.count(m)), MPI_DOUBLE,
                recvs_[m].rank, recvs_[m].tag, comm_, &requests_[m]);
  }
  send_list_.pack_to_host(f, send_buf_, send_host_);
  PhaseScope post_sends(Phase::kHaloPost);
  for (size_t m = 0; m < sends_.size(); ++m)
    MPI_Isend(send_host_.data() + send_list_.offset(m), static_cast<int>(send_list_.count(m)), MPI_DOUBLE,
              sends_[m].rank, sends_[m].tag, comm_, &requests_[recvs_.size() + m]);
  active_ = true;
}

void PackedMessages::finish(Field& f) {
  require(active_, "halo exchange finished without start");
  {
    PhaseScope wait(Phase::kHaloWait);
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }
  active_ = false;
  recv_list_.unpack_from_host(f, recv_buf_, recv_host_);
}

std::vector<PackedMessages::Message> P2PHaloPlan::blocks(const HaloPattern& p, bool send) {
  std::vector<PackedMessages::Message> out;
  for (size_t i = 0; i < p.neighbors.size(); ++i) {
    const int rank = send ? p.target[i] : p.source[i];
    const auto& cells = send ? p.send[i] : p.recv[i];
    if (rank != MPI_PROC_NULL && !cells.empty()) out.push_back({rank, static_cast<int>(i), &cells});
  }
  return out;
}

P2PHaloPlan::P2PHaloPlan(const HaloPattern& pattern, MPI_Comm comm)
    : pattern_(pattern), messages_(blocks(pattern_, true), blocks(pattern_, false), comm) {
  stats_.messages = messages_.messages();
  stats_.bytes = messages_.cells() * static_cast<long>(sizeof(double));
  stats_.rounds = 1;
}

}  // namespace cartex::detail
