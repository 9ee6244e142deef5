#pragma once
// Internal: Kokkos gather/scatter of halo blocks between a field and one contiguous buffer.
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"

namespace cartex::detail {

// Several cell lists and where their cells go in one contiguous buffer: block b starts at offset(b)
// and its cells are followed by padding up to the block's slot size (`slots`, default: no padding).
class PackList {
 public:
  PackList() = default;
  PackList(const std::vector<const std::vector<long>*>& blocks, const std::vector<long>& slots = {});

  // Buffer length (cells and padding).
  long size() const { return offsets_.back(); }
  long offset(size_t b) const { return offsets_[b]; }
  // Slot length of block b in the buffer (cells plus padding).
  long count(size_t b) const { return offsets_[b + 1] - offsets_[b]; }
  // buf(i) = field cell index(i) for every listed cell.
  void pack(const Field& f, const Kokkos::View<double*>& buf) const;
  // field cell index(i) = buf(i).
  void unpack(Field& f, const Kokkos::View<double*>& buf) const;

 private:
  Kokkos::View<long*> index_;  // field cell of listed cell i
  Kokkos::View<long*> pos_;    // buffer position of listed cell i
  std::vector<long> offsets_{0};
};

}  // namespace cartex::detail
