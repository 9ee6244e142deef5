// Message-combining neighborhood reductions (EuroMPI'15 sections 4 and 6) as partial reductions
// along the allgather tree of Algorithm 2 (ICPP'19), traversed from the leaves to the root.
//
// Process Y holds, for every tree node u, the partial result of the root X = Y + prefix(u) over the
// sources X - N[i] of u's subtree. Phase p combines level d-p into level d-p-1: a hop edge with
// value c sends the child's partial to Y + c e_k, a 0 edge shares the parent's slot.
//
//   leaves (own vectors) --phase 0, dim order[d-1]--> level d-1 --...--> root (receive buffer)
#pragma once

#include <vector>

#include "cartex/cart/schedule.hpp"
#include "cartex/cart/tree.hpp"

namespace cartex::cart {

// One hop edge: the child's partial travels to the parent's process and is reduced there.
// Slots: Buffer::send = the caller's own contribution for offset index, Buffer::recv = the result,
// Buffer::temp = a (count, datatype) scratch slot.
struct ReduceEdge {
  Slot child_slot;    // the child's partial at the sender
  int incoming_slot;  // temporary slot it arrives in
  Slot parent_slot;   // partial it is reduced into at the receiver
  Anchor anchor;      // significance at the sender: the root Y + prefix(child)
};

// One round of a reduction phase: send to R + shift, receive from R - shift.
struct ReduceRound {
  std::vector<int> shift;
  std::vector<ReduceEdge> edges;
};

// A reduction phase (one tree level).
struct ReducePhase {
  int dim;
  std::vector<ReduceRound> rounds;
};

// A leaf whose partial starts as the caller's own contributions for offsets `indices`
// (repetitions contribute repeatedly).
struct ReduceLeaf {
  Slot slot;                 // partial slot (temp or recv) the contributions are combined into
  std::vector<int> indices;  // offsets ending at this leaf
  Anchor anchor;             // significant when the root Y + N[i] and the caller exist
};

// Immutable reduction schedule (combining or direct) with its metrics.
class ReduceSchedule {
 public:
  // Combining schedule over the tree in increasing C_k order.
  static ReduceSchedule combining(const Offsets& offsets);
  // Direct schedule: t rounds, every source's vector arrives in its own slot.
  static ReduceSchedule direct(const Offsets& offsets);

  // True for the combining schedule.
  bool is_combining() const { return combining_; }
  // Leaves with their own contributions.
  const std::vector<ReduceLeaf>& leaves() const { return leaves_; }
  // Phases from the leaves to the root.
  const std::vector<ReducePhase>& phases() const { return phases_; }
  // Number of temporary (count, datatype) slots.
  int temp_slots() const { return temp_slots_; }
  // Anchor vector a relative to the process holding the partial.
  const int* anchor(int a) const { return anchors_.data() + static_cast<std::size_t>(a) * d_; }
  // Offset indices for significance checks (applied with sign -1: sources of the root).
  const std::vector<int>& checks() const { return checks_; }
  // Rounds C.
  int rounds() const { return rounds_; }
  // Vectors sent per process V.
  long long volume() const { return volume_; }

 private:
  ReduceSchedule() = default;
  bool combining_ = false;
  int d_ = 0;
  std::vector<ReduceLeaf> leaves_;
  std::vector<ReducePhase> phases_;
  int temp_slots_ = 0;
  std::vector<int> anchors_;
  std::vector<int> checks_;
  int rounds_ = 0;
  long long volume_ = 0;
};

}  // namespace cartex::cart
