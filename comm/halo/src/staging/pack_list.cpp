#include "staging/pack_list.hpp"

#include <algorithm>
#include <string>

namespace cartex::halo {

namespace {

// The kernel labels, made once (Kokkos takes a std::string: a literal would be copied on every launch).
const std::string kGather = "cartex::halo::gather";
const std::string kScatter = "cartex::halo::scatter";

}  // namespace

PackList::PackList(const std::vector<const CellList*>& blocks, const std::vector<long>& slots, int fields)
    : fields_(fields) {
  CopyRuns::Builder runs;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const long n = blocks[b]->size();
    const long slot = slots.empty() ? n : std::max(n, slots[b]);
    long pos = fields_ * offsets_.back();
    blocks[b]->for_each([&](long cell) { runs.add(cell, pos++, slot); });
    offsets_.push_back(offsets_.back() + slot);
  }
  runs_ = runs.build();
}

void PackList::pack(const FieldSet& f, const Kokkos::View<double*>& buf) const {
  runs_.fields_to_buffer(kGather, f, buf.data());
}

void PackList::unpack(const FieldSet& f, const Kokkos::View<double*>& buf) const {
  runs_.buffer_to_fields(kScatter, buf.data(), f);
}

}  // namespace cartex::halo
