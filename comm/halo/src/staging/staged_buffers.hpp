#pragma once
// Internal: the packed path of every packed backend, written once. Two contiguous pack buffers in the
// default memory space (the Kokkos gather writes one, the scatter reads the other), and what MPI
// reads and writes, as comm.gpu_aware_mpi decides (gpu_aware_mpi.hpp, MpiMemory::stage):
//
//   direct: field --pack--> send buffer ----------------------------------MPI--> ...
//           ... --MPI--> recv buffer --unpack--> field                (host memory, or device memory
//                                                                      for a GPU-aware MPI)
//   staged: field --pack--> send buffer --deep_copy--> host send ------MPI--> ...
//           ... --MPI--> host recv --deep_copy--> recv buffer --unpack--> field
//
// Staged host buffers are separate HostSpace allocations even where the default memory space is
// host memory, so a host run with comm.gpu_aware_mpi off makes exactly the copies of a device run.
// Each buffer has the slot layout of pack_list.hpp (for N fields: every field's copy of a block
// inside the block's slot, so every message stays one contiguous range).
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/halo/gpu_aware_mpi.hpp"
#include "staging/pack_list.hpp"

namespace cartex::halo {

// Where MPI reads and writes a packed exchange.
enum class Staging { kDirect, kHost };

// What every StagedBuffers of this process has done (the tests read it around a plan's exchanges).
// A buffer counts once built, when it holds anything; a copy counts when it moves anything.
struct StagingTotals {
  long direct_buffers = 0;     // buffers MPI reads or writes in place (its pointer is the pack buffer's)
  long host_send_buffers = 0;  // staged send buffers whose MPI pointer is a separate host allocation
  long host_recv_buffers = 0;  // the same for receive buffers
  long copies_to_host = 0;    // deep copies send buffer -> host send buffer
  long copies_from_host = 0;  // deep copies host recv buffer -> recv buffer
  long bytes_copied = 0;      // both directions
};
const StagingTotals& staging_totals();

// The send and receive buffers of a packed exchange.
class StagedBuffers {
 public:
  // Cell lists of the send and receive slots; `slots` pads both to uniform sizes (default: none);
  // room for `fields` fields.
  StagedBuffers(const std::vector<const CellList*>& sends, const std::vector<const CellList*>& recvs,
                Staging staging, const std::vector<long>& slots = {}, int fields = 1);

  // The halo pack phase: gather the send cells of every field of f; on return MPI may read send_data().
  void pack(const FieldSet& f);
  // The halo unpack phase: scatter what MPI wrote at recv_data() into the fields of f (their halos are
  // complete on return).
  void unpack(const FieldSet& f);

  // What MPI reads and writes: the pack buffers (direct) or the host buffers (staged).
  double* send_data() const { return staging_ == Staging::kHost ? send_host_.data() : send_buf_.data(); }
  double* recv_data() const { return staging_ == Staging::kHost ? recv_host_.data() : recv_buf_.data(); }
  // The pack buffers themselves (default memory space).
  const double* send_buffer() const { return send_buf_.data(); }
  const double* recv_buffer() const { return recv_buf_.data(); }
  Staging staging() const { return staging_; }
  const PackList& sends() const { return send_list_; }
  const PackList& recvs() const { return recv_list_; }
  // Slot lengths and offsets as MPI's int arguments.
  std::vector<int> counts(const PackList& l) const;
  std::vector<int> offsets(const PackList& l) const;

 private:
  PackList send_list_, recv_list_;
  Staging staging_;
  Kokkos::View<double*> send_buf_, recv_buf_;
  Kokkos::View<double*, Kokkos::HostSpace> send_host_, recv_host_;  // staged only (else empty)
};

// The staging MpiMemory::stage asks for.
inline Staging staging_of(const MpiMemory& memory) { return memory.stage ? Staging::kHost : Staging::kDirect; }

// The cell lists of block parts (pattern.sends() or recvs()).
template <class Parts>
std::vector<const CellList*> cell_lists(const Parts& parts) {
  std::vector<const CellList*> out;
  for (const auto& p : parts) out.push_back(p.cells);
  return out;
}

}  // namespace cartex::halo
