#include "staging/staged_buffers.hpp"

namespace cartex::halo {

StagedBuffers::StagedBuffers(const std::vector<const std::vector<long>*>& sends,
                             const std::vector<const std::vector<long>*>& recvs, const std::vector<long>& slots)
    : send_list_(sends, slots),
      recv_list_(recvs, slots),
      send_buf_("cartex::halo_send", send_list_.size()),
      recv_buf_("cartex::halo_recv", recv_list_.size()),
      send_host_(Kokkos::create_mirror_view(send_buf_)),
      recv_host_(Kokkos::create_mirror_view(recv_buf_)) {}

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
