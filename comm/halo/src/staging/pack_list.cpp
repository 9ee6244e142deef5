#include "staging/pack_list.hpp"

#include <algorithm>

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

}  // namespace cartex::halo
