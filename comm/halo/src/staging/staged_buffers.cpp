#include "staging/staged_buffers.hpp"

#include <string>

#include "cartex/core/phase_profile.hpp"

namespace cartex::halo {

namespace {

StagingTotals totals;

// A separate host buffer of n doubles when staged, else none.
Kokkos::View<double*, Kokkos::HostSpace> host_buffer(const char* label, Staging staging, long n) {
  return Kokkos::View<double*, Kokkos::HostSpace>(std::string(label), static_cast<size_t>(staging == Staging::kHost ? n : 0));
}

// Counts a buffer MPI will use, as where it lives says (`host`: the staged count of its direction).
void count_buffer(long n, const double* mpi, const double* pack, long& host) {
  if (n == 0) return;
  ++(mpi == pack ? totals.direct_buffers : host);
}

}  // namespace

const StagingTotals& staging_totals() { return totals; }

StagedBuffers::StagedBuffers(const std::vector<const CellList*>& sends, const std::vector<const CellList*>& recvs, Staging staging,
                             const std::vector<long>& slots, int fields)
    : send_list_(sends, slots, fields),
      recv_list_(recvs, slots, fields),
      staging_(staging),
      send_buf_("cartex::halo_send", send_list_.size()),
      recv_buf_("cartex::halo_recv", recv_list_.size()),
      send_host_(host_buffer("cartex::halo_send_host", staging, send_list_.size())),
      recv_host_(host_buffer("cartex::halo_recv_host", staging, recv_list_.size())) {
  count_buffer(send_list_.size(), send_data(), send_buffer(), totals.host_send_buffers);
  count_buffer(recv_list_.size(), recv_data(), recv_buffer(), totals.host_recv_buffers);
}

// The copies and fences are the default instance's, not global ones: on a device an overlapped step's
// interior runs on an instance of its own meanwhile (apps/driver/src/overlap_shape.hpp), and the
// exchange must not wait for it.
void StagedBuffers::pack(const FieldSet& f) {
  core::PhaseScope pack(core::Phase::kHaloPack);
  const Kokkos::DefaultExecutionSpace exec;
  send_list_.pack(f, send_buf_);
  if (staging_ == Staging::kDirect || send_host_.extent(0) == 0) {
    exec.fence();  // MPI reads the buffer next
    return;
  }
  Kokkos::deep_copy(exec, send_host_, send_buf_);
  exec.fence();
  ++totals.copies_to_host;
  totals.bytes_copied += static_cast<long>(send_host_.extent(0) * sizeof(double));
}

void StagedBuffers::unpack(const FieldSet& f) {
  core::PhaseScope unpack(core::Phase::kHaloUnpack);
  const Kokkos::DefaultExecutionSpace exec;
  if (staging_ == Staging::kHost && recv_host_.extent(0) > 0) {
    Kokkos::deep_copy(exec, recv_buf_, recv_host_);
    ++totals.copies_from_host;
    totals.bytes_copied += static_cast<long>(recv_host_.extent(0) * sizeof(double));
  }
  recv_list_.unpack(f, recv_buf_);
  exec.fence();
}

std::vector<int> StagedBuffers::counts(const PackList& l) const {
  std::vector<int> out;
  for (size_t b = 0; b < l.blocks(); ++b) out.push_back(static_cast<int>(l.count(b)));
  return out;
}

std::vector<int> StagedBuffers::offsets(const PackList& l) const {
  std::vector<int> out;
  for (size_t b = 0; b < l.blocks(); ++b) out.push_back(static_cast<int>(l.offset(b)));
  return out;
}

}  // namespace cartex::halo
