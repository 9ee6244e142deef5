// Ring and Ring* allreduce (NESUS'14 section III and III.2). Process p behaves as virtual rank
// v = renaming.virtual_of(p); "p + 1" is the real rank renaming.real_of(v + 1), i.e. for a
// round-robin layout f_RR(f_SQ(p) + 1) as in the paper's Figure 2.
#include <cstring>
#include <stdexcept>
#include <vector>

#include "cartex/ranks/allreduce.hpp"
#include "mpi_check.hpp"
#include "segments.hpp"

namespace cartex::ranks {
namespace {

constexpr int kRingTag = 0x52494e;  // "RIN": the ring's point-to-point messages on `comm`

}  // namespace

void ring_allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    const Renaming& renaming) {
  const int procs = core::comm_size(comm);
  const int me = core::comm_rank(comm);
  int commutative = 0, size = 0;
  MPI_Aint lb = 0, extent = 0;
  check_mpi(MPI_Type_get_extent(datatype, &lb, &extent), "MPI_Type_get_extent");
  check_mpi(MPI_Type_size(datatype, &size), "MPI_Type_size");
  check_mpi(MPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  if (renaming.size() != procs) throw std::invalid_argument("cartex::ranks: renaming does not match the communicator");
  if (!commutative) throw std::invalid_argument("cartex::ranks: the ring allreduce needs a commutative op");
  if (lb != 0 || extent != size) throw std::invalid_argument("cartex::ranks: the ring allreduce needs a contiguous type");
  if (count < 0) throw std::invalid_argument("cartex::ranks: negative count");
  char* out = static_cast<char*>(recvbuf);
  if (sendbuf != MPI_IN_PLACE && count > 0) std::memcpy(out, sendbuf, static_cast<std::size_t>(count) * extent);
  if (procs == 1 || count == 0) return;

  const detail::Segments seg{count, procs};
  const int v = renaming.virtual_of(me);
  const int next = renaming.real_of(seg.wrap(v + 1)), prev = renaming.real_of(seg.wrap(v - 1));
  const auto at = [&](int s) { return out + static_cast<MPI_Aint>(seg.start(s)) * extent; };
  std::vector<char> partial(static_cast<std::size_t>(seg.size(0)) * extent + 1);
  for (int k = 0; k < procs - 1; ++k) {  // computation phase
    const int send = seg.wrap(v - k), recv = seg.wrap(v - k - 1);
    check_mpi(MPI_Sendrecv(at(send), seg.size(send), datatype, next, kRingTag, partial.data(), seg.size(recv), datatype,
                           prev, kRingTag, comm, MPI_STATUS_IGNORE),
              "MPI_Sendrecv (ring computation phase)");
    // inout = in op inout: the partial of virtual ranks recv..v-1, then this process's x[v].
    check_mpi(MPI_Reduce_local(partial.data(), at(recv), seg.size(recv), datatype, op), "MPI_Reduce_local");
  }
  for (int k = 0; k < procs - 1; ++k) {  // distribution phase (ring allgather)
    const int send = seg.wrap(v + 1 - k), recv = seg.wrap(v - k);
    check_mpi(MPI_Sendrecv(at(send), seg.size(send), datatype, next, kRingTag, at(recv), seg.size(recv), datatype, prev,
                           kRingTag, comm, MPI_STATUS_IGNORE),
              "MPI_Sendrecv (ring distribution phase)");
  }
}

Traffic ring_traffic(const NodeLayout& layout, const Renaming& renaming, int count, int element_bytes) {
  Traffic t;
  const int procs = layout.size();
  if (procs < 2) return t;
  const detail::Segments seg{count, procs};
  for (int phase = 0; phase < 2; ++phase)
    for (int k = 0; k < procs - 1; ++k)
      for (int v = 0; v < procs; ++v) {
        const int s = phase == 0 ? seg.wrap(v - k) : seg.wrap(v + 1 - k);
        const std::int64_t bytes = static_cast<std::int64_t>(seg.size(s)) * element_bytes;
        const bool inter = layout.node_of(renaming.real_of(v)) != layout.node_of(renaming.real_of(seg.wrap(v + 1)));
        t.messages += 1;
        t.bytes += bytes;
        t.inter_node_messages += inter ? 1 : 0;
        t.inter_node_bytes += inter ? bytes : 0;
      }
  return t;
}

}  // namespace cartex::ranks
