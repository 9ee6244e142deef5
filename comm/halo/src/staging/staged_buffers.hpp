#pragma once
// Internal: the packed path of every packed backend, written once. Two contiguous buffers in the
// default memory space, with host mirrors that MPI sees (the same memory when the default memory
// space is host-accessible, so no device pointer reaches MPI):
//
//   field --pack (Kokkos gather)--> send view --deep_copy--> send mirror --MPI--> ...
//   ... --MPI--> recv mirror --deep_copy--> recv view --unpack (Kokkos scatter)--> field
//
// Each buffer has the slot layout of pack_list.hpp.
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/core/kokkos_compat.hpp"
#include "staging/pack_list.hpp"

namespace cartex::halo {

// The send and receive buffers of a packed exchange.
class StagedBuffers {
 public:
  // Cell lists of the send and receive slots; `slots` pads both to uniform sizes (default: none).
  StagedBuffers(const std::vector<const std::vector<long>*>& sends, const std::vector<const std::vector<long>*>& recvs,
                const std::vector<long>& slots = {});

  // The halo pack phase: gather the send cells of f into the send mirror.
  void pack(const core::Field& f) { send_list_.pack_to_host(f, send_buf_, send_host_); }
  // The halo unpack phase: scatter the receive mirror into f (the halo is complete on return).
  void unpack(core::Field& f) { recv_list_.unpack_from_host(f, recv_buf_, recv_host_); }

  // Host memory for MPI.
  double* send_data() const { return send_host_.data(); }
  double* recv_data() const { return recv_host_.data(); }
  const PackList& sends() const { return send_list_; }
  const PackList& recvs() const { return recv_list_; }
  // Slot lengths and offsets as MPI's int arguments.
  std::vector<int> counts(const PackList& l) const;
  std::vector<int> offsets(const PackList& l) const;

 private:
  PackList send_list_, recv_list_;
  Kokkos::View<double*> send_buf_, recv_buf_;
  core::host_mirror_t<Kokkos::View<double*>> send_host_, recv_host_;
};

// The cell lists of block parts (pattern.sends() or recvs()).
template <class Parts>
std::vector<const std::vector<long>*> cell_lists(const Parts& parts) {
  std::vector<const std::vector<long>*> out;
  for (const auto& p : parts) out.push_back(p.cells);
  return out;
}

}  // namespace cartex::halo
