#include "staging/pack_list.hpp"

#include <algorithm>

#include "cartex/core/phase_profile.hpp"

namespace cartex::halo {

PackList::PackList(const std::vector<const std::vector<long>*>& blocks, const std::vector<long>& slots) {
  long cells = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const long n = static_cast<long>(blocks[b]->size());
    offsets_.push_back(offsets_.back() + (slots.empty() ? n : std::max(n, slots[b])));
    cells += n;
  }
  index_ = Kokkos::View<long*>("cartex::pack_index", cells);
  pos_ = Kokkos::View<long*>("cartex::pack_position", cells);
  auto hi = Kokkos::create_mirror_view(index_);
  auto hp = Kokkos::create_mirror_view(pos_);
  long k = 0;
  for (size_t b = 0; b < blocks.size(); ++b)
    for (size_t c = 0; c < blocks[b]->size(); ++c, ++k) {
      hi(k) = (*blocks[b])[c];
      hp(k) = offsets_[b] + static_cast<long>(c);
    }
  Kokkos::deep_copy(index_, hi);
  Kokkos::deep_copy(pos_, hp);
}

void PackList::pack(const core::Field& f, const Kokkos::View<double*>& buf) const {
  const double* src = f.view.data();
  const auto idx = index_;
  const auto pos = pos_;
  Kokkos::parallel_for("cartex::halo::gather", index_.extent(0), KOKKOS_LAMBDA(long i) { buf(pos(i)) = src[idx(i)]; });
}

void PackList::unpack(core::Field& f, const Kokkos::View<double*>& buf) const {
  double* dst = f.view.data();
  const auto idx = index_;
  const auto pos = pos_;
  Kokkos::parallel_for("cartex::halo::scatter", index_.extent(0), KOKKOS_LAMBDA(long i) { dst[idx(i)] = buf(pos(i)); });
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
