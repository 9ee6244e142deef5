// Per-process binding of schedules, including the significance filter for non-periodic meshes:
// a block travels only if the process it comes from (or the root it is reduced for) and one of its
// final targets exist. Along dimension-ordered routes every intermediate process has each
// coordinate equal to the source's or the target's, so it exists whenever both ends do: no block
// between two existing processes ever needs a detour or a direct fallback.
#include "bind.hpp"

#include <mpi.h>

namespace cartex::cart::detail {
namespace {

// MPI guarantees tags up to 32767.
constexpr int kTagSpace = 32768;

// Is a transfer with anchor vector a significant at this process?
bool significant(const Topology& topo, const Offsets& offsets, const int* a, const Anchor& anchor,
                 const std::vector<int>& checks, int sign) {
  if (!topo.has_mesh_dims()) return true;
  if (!topo.inside(a, 1, nullptr, 0)) return false;
  for (int j = anchor.check_first; j < anchor.check_first + anchor.check_count; ++j)
    if (topo.inside(a, 1, offsets[checks[static_cast<std::size_t>(j)]], sign)) return true;
  return false;
}

// Anchor vector seen from the receiver, which sits at sender + shift.
std::vector<int> receiver_anchor(const int* a, const std::vector<int>& shift) {
  std::vector<int> r(shift.size());
  for (std::size_t k = 0; k < shift.size(); ++k) r[k] = a[k] - shift[k];
  return r;
}

// Keeps only the temporary slots this process uses (numbered densely), so calls allocate no more
// scratch than the blocks that really stop over here.
void compact_temp(BoundSchedule& b) {
  std::vector<int> id(b.temp_mirror.size(), -1);
  std::vector<Slot> mirror;
  auto visit = [&](Slot& slot) {
    if (slot.buffer != Buffer::temp) return;
    int& n = id[static_cast<std::size_t>(slot.index)];
    if (n < 0) {
      n = static_cast<int>(mirror.size());
      mirror.push_back(b.temp_mirror[static_cast<std::size_t>(slot.index)]);
    }
    slot.index = n;
  };
  for (BoundPhase& p : b.phases) {
    for (auto* list : {&p.sends, &p.recvs})
      for (Message& m : *list)
        for (Slot& slot : m.slots) visit(slot);
    for (Slot& slot : p.self_from) visit(slot);
    for (Slot& slot : p.self_to) visit(slot);
  }
  for (Slot& slot : b.copy_from) visit(slot);
  for (Slot& slot : b.copy_to) visit(slot);
  b.temp_mirror = std::move(mirror);
}

}  // namespace

BoundSchedule bind(const Schedule& s, const Offsets& offsets, const Topology& topo) {
  BoundSchedule b;
  b.temp_mirror = s.temp_mirror();
  // Receive blocks whose source does not exist are never written: redirect intermediate use.
  std::vector<int> redirect(static_cast<std::size_t>(offsets.t()), -1);
  if (s.recv_redirect_base() >= 0 && topo.has_mesh_dims())
    for (int i = 0; i < offsets.t(); ++i)
      if (!topo.inside(offsets[i], -1, nullptr, 0)) redirect[static_cast<std::size_t>(i)] = s.recv_redirect_base() + i;
  auto place = [&](Slot slot) {
    if (slot.buffer == Buffer::recv && redirect[static_cast<std::size_t>(slot.index)] >= 0)
      return Slot{Buffer::temp, redirect[static_cast<std::size_t>(slot.index)]};
    return slot;
  };
  int tag = 0;
  int me = -1;
  {
    const std::vector<int> zero(static_cast<std::size_t>(offsets.d()), 0);
    me = topo.shifted_rank(zero.data(), 1);
  }
  auto add = [](std::vector<Message>& list, int rank, int tag, Slot slot) {
    for (Message& m : list)
      if (m.rank == rank) {
        m.slots.push_back(slot);
        return;
      }
    list.push_back({rank, tag, {slot}});
  };
  for (const Phase& phase : s.phases()) {
    BoundPhase bp;
    for (const Round& round : phase.rounds) {
      const int round_tag = tag++ % kTagSpace;
      const int to = topo.shifted_rank(round.shift.data(), 1);
      const int from = topo.shifted_rank(round.shift.data(), -1);
      for (const Transfer& tr : round.transfers) {
        const int* a = s.anchor(tr.anchor.anchor);
        const bool send = to != MPI_PROC_NULL && significant(topo, offsets, a, tr.anchor, s.checks(), s.check_sign());
        const std::vector<int> ar = receiver_anchor(a, round.shift);
        const bool recv =
            from != MPI_PROC_NULL && significant(topo, offsets, ar.data(), tr.anchor, s.checks(), s.check_sign());
        if (to == me) {
          // Partner is this process: sender and receiver test the same positions.
          if (send && recv) {
            bp.self_from.push_back(place(tr.from));
            bp.self_to.push_back(place(tr.to));
          }
          continue;
        }
        if (send) add(bp.sends, to, round_tag, place(tr.from));
        if (recv) add(bp.recvs, from, round_tag, place(tr.to));
      }
    }
    b.phases.push_back(std::move(bp));
  }
  for (const Transfer& tr : s.local_copies()) {
    if (!significant(topo, offsets, s.anchor(tr.anchor.anchor), tr.anchor, s.checks(), s.check_sign())) continue;
    b.copy_from.push_back(place(tr.from));
    b.copy_to.push_back(place(tr.to));
  }
  compact_temp(b);
  return b;
}

BoundReduce bind(const ReduceSchedule& s, const Offsets& offsets, const Topology& topo) {
  BoundReduce b;
  b.temp_slots = s.temp_slots();
  for (const ReduceLeaf& leaf : s.leaves())
    if (significant(topo, offsets, s.anchor(leaf.anchor.anchor), leaf.anchor, s.checks(), -1))
      b.leaves.push_back({leaf.slot, leaf.indices});
  int tag = 0;
  for (const ReducePhase& phase : s.phases()) {
    std::vector<BoundReduceRound> rounds;
    for (const ReduceRound& round : phase.rounds) {
      BoundReduceRound br{topo.shifted_rank(round.shift.data(), 1), topo.shifted_rank(round.shift.data(), -1),
                          tag++ % kTagSpace, {}, {}, {}};
      for (const ReduceEdge& e : round.edges) {
        const int* a = s.anchor(e.anchor.anchor);
        if (br.send_rank != MPI_PROC_NULL && significant(topo, offsets, a, e.anchor, s.checks(), -1))
          br.send.push_back(e.child_slot);
        const std::vector<int> ar = receiver_anchor(a, round.shift);
        if (br.recv_rank != MPI_PROC_NULL && significant(topo, offsets, ar.data(), e.anchor, s.checks(), -1)) {
          br.incoming.push_back(e.incoming_slot);
          br.into.push_back(e.parent_slot);
        }
      }
      if (br.send.empty()) br.send_rank = MPI_PROC_NULL;
      if (br.incoming.empty()) br.recv_rank = MPI_PROC_NULL;
      if (br.send_rank != MPI_PROC_NULL || br.recv_rank != MPI_PROC_NULL) rounds.push_back(std::move(br));
    }
    b.phases.push_back(std::move(rounds));
  }
  return b;
}

}  // namespace cartex::cart::detail
