#pragma once
// Internal: Kokkos gather/scatter of halo blocks between a field and one contiguous buffer.
//
// Slot layout of a packed buffer (one slot per listed block, in list order; slot b starts at
// offset(b) and holds the block's cells in the pattern's z, y, x order, then padding up to slots[b]
// when a uniform slot size is asked for, as message combining needs):
//
//   offset(0)            offset(1)      offset(2)
//   | cells 0    | pad   | cells 1      | cells 2 | pad |
//   '--- count(0) ------''-- count(1) --''-- count(2) --'   size() = offset(3)
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"
#include "staging/copy_runs.hpp"

namespace cartex::halo {

// Several cell lists and where their cells go in one contiguous buffer: block b starts at offset(b)
// and its cells are followed by padding up to the block's slot size (`slots`, default: no padding).
class PackList {
 public:
  PackList() = default;
  PackList(const std::vector<const std::vector<long>*>& blocks, const std::vector<long>& slots = {});

  // Buffer length (cells and padding).
  long size() const { return offsets_.back(); }
  long offset(size_t b) const { return offsets_[b]; }
  // Number of slots (listed blocks).
  size_t blocks() const { return offsets_.size() - 1; }
  // Slot length of block b in the buffer (cells plus padding).
  long count(size_t b) const { return offsets_[b + 1] - offsets_[b]; }
  // buf(i) = field cell index(i) for every listed cell, run by run (kernel "cartex::halo::gather"; public because
  // CUDA forbids device lambdas in private member functions).
  void pack(const core::Field& f, const Kokkos::View<double*>& buf) const;
  // field cell index(i) = buf(i) (kernel "cartex::halo::scatter").
  void unpack(core::Field& f, const Kokkos::View<double*>& buf) const;

 private:
  CopyRuns runs_;  // a: field cells, b: buffer positions, as runs
  std::vector<long> offsets_{0};
};

}  // namespace cartex::halo
