#include "staging/pack_list.hpp"

#include <algorithm>

#include "cartex/core/phase_profile.hpp"

namespace cartex::halo {

PackList::PackList(const std::vector<const std::vector<long>*>& blocks, const std::vector<long>& slots) {
  std::vector<long> index, pos;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const long n = static_cast<long>(blocks[b]->size());
    for (long c = 0; c < n; ++c) {
      index.push_back((*blocks[b])[c]);
      pos.push_back(offsets_.back() + c);
    }
    offsets_.push_back(offsets_.back() + (slots.empty() ? n : std::max(n, slots[b])));
  }
  runs_ = CopyRuns(index, pos);
}

void PackList::pack(const core::Field& f, const Kokkos::View<double*>& buf) const {
  runs_.a_to_b("cartex::halo::gather", f.view.data(), buf.data());
}

void PackList::unpack(core::Field& f, const Kokkos::View<double*>& buf) const {
  runs_.b_to_a("cartex::halo::scatter", buf.data(), f.view.data());
}

void PackList::pack_to_host(const core::Field& f, const Kokkos::View<double*>& buf,
                            const core::host_mirror_t<Kokkos::View<double*>>& host) const {
  core::PhaseScope pack(core::Phase::kHaloPack);
  this->pack(f, buf);
  Kokkos::deep_copy(host, buf);
}

void PackList::unpack_from_host(core::Field& f, const Kokkos::View<double*>& buf,
                                const core::host_mirror_t<Kokkos::View<double*>>& host) const {
  core::PhaseScope unpack(core::Phase::kHaloUnpack);
  Kokkos::deep_copy(buf, host);
  this->unpack(f, buf);
  Kokkos::fence();
}

}  // namespace cartex::halo
