// Blocking neighborhood reductions (EuroMPI'15 sections 4 and 6): own contributions start the
// leaves' partials, each phase ships partials zero-copy and reduces them on arrival with
// MPI_Reduce_local (commutative op, so the order of combination does not matter).
#include <vector>

#include "cartex/cart/error.hpp"
#include "execute.hpp"
#include "state.hpp"

namespace cartex::cart::detail {
namespace {

// Partials that already hold a value (the op has no identity to start from).
class Partials {
 public:
  Partials(int temp_slots) : has_(static_cast<std::size_t>(temp_slots) + 1, 0) {}
  // Combines a (count, datatype) vector into the partial of slot `to`.
  void combine(const BufferRegion& from, Slot to, const BufferRegion& target, MPI_Op op) {
    char& has = has_[to.buffer == Buffer::recv ? 0 : static_cast<std::size_t>(to.index) + 1];
    if (!has) {
      copy_region(from, target);
      has = 1;
    } else {
      check_mpi(MPI_Reduce_local(from.addr, target.addr, target.count, target.type, op), "MPI_Reduce_local");
    }
  }

 private:
  std::vector<char> has_;
};

}  // namespace

void State::reduce(OpKind kind, std::vector<BufferRegion> own, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  Decision d{options_.algorithm == Algorithm::combining, false};
  if (options_.algorithm == Algorithm::automatic) {
    auto& cached = decisions_[static_cast<std::size_t>(kind)];
    if (!cached) {
      const BufferRegion probe = make_region(recvbuf, count, datatype);
      double local = static_cast<double>(probe.bytes), global = 0.0;
      check_mpi(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, traffic_), "MPI_Allreduce");
      cached = Decision{auto_combining(Collective::allgather, global), false};
    }
    d = *cached;
  }
  const BoundReduce& s = bound_reduce(d.combining);
  CallLayout layout;
  layout.recv.push_back(make_region(recvbuf, count, datatype));
  layout.make_temp(s.temp_slots + offsets_.t(), count, datatype);
  // Contributions in another layout than (count, datatype) are copied into a slot of their own
  // first, since MPI_Reduce_local combines equal datatypes only.
  for (std::size_t i = 0; i < own.size(); ++i) {
    if (own[i].type == datatype && own[i].count == count) continue;
    const BufferRegion& slot = layout.at({Buffer::temp, s.temp_slots + static_cast<int>(i)});
    copy_region(own[i], slot);
    own[i] = slot;
  }
  layout.send = std::move(own);
  Partials partials(s.temp_slots);
  for (const BoundLeaf& leaf : s.leaves)
    for (int i : leaf.indices) partials.combine(layout.at({Buffer::send, i}), leaf.slot, layout.at(leaf.slot), op);
  std::vector<MPI_Request> requests;
  std::vector<MPI_Datatype> types;
  for (const auto& phase : s.phases) {
    requests.clear();
    types.clear();
    for (const BoundReduceRound& r : phase) {
      if (r.recv_rank == MPI_PROC_NULL) continue;
      std::vector<const BufferRegion*> blocks;
      for (int slot : r.incoming) blocks.push_back(&layout.at({Buffer::temp, slot}));
      types.push_back(struct_type(blocks));
      requests.emplace_back();
      check_mpi(MPI_Irecv(MPI_BOTTOM, 1, types.back(), r.recv_rank, r.tag, traffic_, &requests.back()), "MPI_Irecv");
    }
    for (const BoundReduceRound& r : phase) {
      if (r.send_rank == MPI_PROC_NULL) continue;
      std::vector<const BufferRegion*> blocks;
      for (Slot slot : r.send) blocks.push_back(&layout.at(slot));
      types.push_back(struct_type(blocks));
      requests.emplace_back();
      check_mpi(MPI_Isend(MPI_BOTTOM, 1, types.back(), r.send_rank, r.tag, traffic_, &requests.back()), "MPI_Isend");
    }
    const int rc = MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    int free_rc = MPI_SUCCESS;  // every type is freed; the first failure is thrown after the wait's
    for (MPI_Datatype& t : types) {
      const int r = MPI_Type_free(&t);
      if (free_rc == MPI_SUCCESS) free_rc = r;
    }
    check_mpi(rc, "MPI_Waitall");
    check_mpi(free_rc, "MPI_Type_free");
    for (const BoundReduceRound& r : phase)
      for (std::size_t j = 0; j < r.incoming.size(); ++j)
        partials.combine(layout.at({Buffer::temp, r.incoming[j]}), r.into[j], layout.at(r.into[j]), op);
  }
}

}  // namespace cartex::cart::detail
