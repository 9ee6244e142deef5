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

// The copies and fences are the default instance's, not global ones: on a device an overlapped step's
// interior runs on an instance of its own meanwhile (apps/driver/src/overlap_shape.hpp), and the
// exchange must not wait for it.
void PackList::pack_to_host(const core::Field& f, const Kokkos::View<double*>& buf,
                            const core::host_mirror_t<Kokkos::View<double*>>& host) const {
  core::PhaseScope pack(core::Phase::kHaloPack);
  const Kokkos::DefaultExecutionSpace exec;
  this->pack(f, buf);
  Kokkos::deep_copy(exec, host, buf);
  exec.fence();
}

void PackList::unpack_from_host(core::Field& f, const Kokkos::View<double*>& buf,
                                const core::host_mirror_t<Kokkos::View<double*>>& host) const {
  core::PhaseScope unpack(core::Phase::kHaloUnpack);
  const Kokkos::DefaultExecutionSpace exec;
  Kokkos::deep_copy(exec, buf, host);
  this->unpack(f, buf);
  exec.fence();
}

}  // namespace cartex::halo
