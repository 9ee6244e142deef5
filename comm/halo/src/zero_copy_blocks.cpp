#include "zero_copy_blocks.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <stdexcept>

namespace cartex::detail {

ZeroCopyBlocks::ZeroCopyBlocks(const HaloPattern& p, bool compact, const BlockPadding* padding) {
  const size_t t = p.neighbors.size();
  // Scratch layout: one shared read region for send padding, then a region per received block.
  std::vector<long> recv_pad_at(t, 0);
  long send_pad = 0, scratch = 0;
  MPI_Aint base_addr = 0, scratch_addr = 0;
  // With padding every block has its slot size, also those of MPI_PROC_NULL partners (then all
  // padding): the schedule sizes temporary slots after the local block of the same index.
  auto cells_of = [&](size_t i, bool send) -> const std::vector<long>& {
    static const std::vector<long> none;
    if (send) return p.target[i] != MPI_PROC_NULL ? p.send[i] : none;
    return p.source[i] != MPI_PROC_NULL ? p.recv[i] : none;
  };
  if (padding) {
    for (size_t i = 0; i < t; ++i) send_pad = std::max(send_pad, padding->slots[i] - static_cast<long>(cells_of(i, true).size()));
    scratch = send_pad;
    for (size_t i = 0; i < t; ++i) {
      recv_pad_at[i] = scratch;
      scratch += padding->slots[i] - static_cast<long>(cells_of(i, false).size());
    }
    padding->scratch->assign(std::max(1L, scratch), 0.0);
    MPI_Get_address(padding->base, &base_addr);
    MPI_Get_address(padding->scratch->data(), &scratch_addr);
  }
  auto add = [&](const std::vector<long>& cells, long slot, long pad_at, std::vector<int>& counts,
                 std::vector<MPI_Aint>& displs, std::vector<MPI_Datatype>& types) {
    const long pad = padding ? slot - static_cast<long>(cells.size()) : 0;
    const MPI_Aint pad_displ = MPI_Aint_diff(scratch_addr, base_addr) + pad_at * static_cast<MPI_Aint>(sizeof(double));
    owned.push_back(cells_type(cells, pad, pad_displ));
    const bool empty = owned.back().get() == MPI_DATATYPE_NULL;
    counts.push_back(empty ? 0 : 1);
    displs.push_back(0);
    types.push_back(empty ? MPI_DOUBLE : owned.back().get());
  };
  for (size_t i = 0; i < t; ++i) {
    const long slot = padding ? padding->slots[i] : 0;
    const bool to = p.target[i] != MPI_PROC_NULL, from = p.source[i] != MPI_PROC_NULL;
    if (!compact || to) add(cells_of(i, true), slot, 0, send_counts, send_displs, send_types);
    if (!compact || from) add(cells_of(i, false), slot, recv_pad_at[i], recv_counts, recv_displs, recv_types);
  }
}

std::vector<long> uniform_block_sizes(const HaloPattern& p, MPI_Comm comm) {
  std::vector<long> local(p.neighbors.size(), 0), global(p.neighbors.size(), 0);
  for (size_t i = 0; i < local.size(); ++i) {
    if (p.target[i] != MPI_PROC_NULL) local[i] = static_cast<long>(p.send[i].size());
    if (p.source[i] != MPI_PROC_NULL) local[i] = std::max(local[i], static_cast<long>(p.recv[i].size()));
  }
  MPI_Allreduce(local.data(), global.data(), static_cast<int>(local.size()), MPI_LONG, MPI_MAX, comm);
  return global;
}

void require_host_accessible_memory(const std::string& backend) {
  using Space = Kokkos::DefaultExecutionSpace::memory_space;
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible)
    throw std::invalid_argument("backend " + backend +
                                " hands the field's memory to MPI, but the default memory space is not host-accessible;"
                                " use p2p or cart_combining_packed");
}

}  // namespace cartex::detail
