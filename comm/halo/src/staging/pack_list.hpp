#pragma once
// Internal: Kokkos gather/scatter of halo blocks between a set of fields and one contiguous buffer.
//
// Slot layout of a packed buffer (one slot per listed block, in list order; the slot of block b holds
// the block's cells in the pattern's z, y, x order, then padding up to slots[b] when a uniform slot
// size is asked for, as message combining needs). One field (N = 1):
//
//   offset(0)            offset(1)      offset(2)
//   | cells 0    | pad   | cells 1      | cells 2 | pad |
//   '--- count(0) ------''-- count(1) --''-- count(2) --'   size() = offset(3)
//
// N fields (issue 37): the slot of block b holds the one-field slot of every field in turn, so a
// message of consecutive slots stays one contiguous range; with c(b), o(b) the one-field slot length
// and offset, field q's copy of block b starts at N o(b) + q c(b):
//
//   offset(0) = 0                         offset(1) = N o(1)
//   | f0 cells 0 | pad | f1 cells 0 | pad | ... | f0 cells 1 | f1 cells 1 | ... |
//   '-- c(0) ---------''-- c(0) ---------'      '-- c(1) --''-- c(1) --'
//   '------------- count(0) = N c(0) ----------''------ count(1) = N c(1) ----'   size() = N o(blocks)
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/halo/cell_list.hpp"
#include "cartex/halo/plan.hpp"
#include "staging/copy_runs.hpp"

namespace cartex::halo {

// Several cell lists and where their cells go in one contiguous buffer, for `fields` fields: block b
// starts at offset(b) and holds, per field, its cells followed by padding up to the block's slot size
// (`slots`, default: no padding).
class PackList {
 public:
  PackList() = default;
  PackList(const std::vector<const CellList*>& blocks, const std::vector<long>& slots = {}, int fields = 1);

  // Buffer length (cells and padding of every field).
  long size() const { return fields_ * offsets_.back(); }
  long offset(size_t b) const { return fields_ * offsets_[b]; }
  // Number of slots (listed blocks).
  size_t blocks() const { return offsets_.size() - 1; }
  // Slot length of block b in the buffer (cells plus padding, every field).
  long count(size_t b) const { return fields_ * (offsets_[b + 1] - offsets_[b]); }
  int fields() const { return fields_; }
  // buf(i) = field cell index(i) for every listed cell of every field, run by run (kernel
  // "cartex::halo::gather"; public because CUDA forbids device lambdas in private member functions).
  void pack(const FieldSet& f, const Kokkos::View<double*>& buf) const;
  // field cell index(i) = buf(i) (kernel "cartex::halo::scatter").
  void unpack(const FieldSet& f, const Kokkos::View<double*>& buf) const;

 private:
  CopyRuns runs_;  // a: field cells, b: buffer positions of field 0, stride: the slot's one-field length
  std::vector<long> offsets_{0};  // one-field slot offsets
  int fields_ = 1;
};

}  // namespace cartex::halo
