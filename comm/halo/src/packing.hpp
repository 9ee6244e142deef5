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
  // buf(i) = field cell index(i) for every listed cell (kernel "cartex::halo::gather"; public because
  // CUDA forbids device lambdas in private member functions).
  void pack(const Field& f, const Kokkos::View<double*>& buf) const;
  // field cell index(i) = buf(i) (kernel "cartex::halo::scatter").
  void unpack(Field& f, const Kokkos::View<double*>& buf) const;
  // The halo pack phase: pack into buf, then copy buf to its host mirror for MPI (which fences).
  void pack_to_host(const Field& f, const Kokkos::View<double*>& buf, const Kokkos::View<double*>::HostMirror& host) const;
  // The halo unpack phase: copy the host mirror to buf, unpack, fence (the halo is complete on return).
  void unpack_from_host(Field& f, const Kokkos::View<double*>& buf, const Kokkos::View<double*>::HostMirror& host) const;

 private:
  Kokkos::View<long*> index_;  // field cell of listed cell i
  Kokkos::View<long*> pos_;    // buffer position of listed cell i
  std::vector<long> offsets_{0};
};

}  // namespace cartex::detail
