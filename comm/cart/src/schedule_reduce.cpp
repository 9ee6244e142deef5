// Reduction schedules (EuroMPI'15 sections 4 and 6): direct (one round per non-zero offset) and
// message-combining as partial reductions along the allgather tree of Algorithm 2 (ICPP'19),
// traversed from the leaves to the root, so C and V equal those of the combining allgather.
#include <map>
#include <utility>

#include "cartex/cart/reduce_schedule.hpp"

namespace cartex::cart {

ReduceSchedule ReduceSchedule::direct(const Offsets& offsets) {
  const int d = offsets.d();
  ReduceSchedule s;
  s.d_ = d;
  ReduceLeaf zero{{Buffer::recv, 0}, {}, {0, 0, 0}};
  ReducePhase phase{-1, {}};
  for (int i = 0; i < offsets.t(); ++i) {
    // Anchor = root, seen from the holder of the contribution: holder + N[i].
    const int a = static_cast<int>(s.anchors_.size()) / d;
    s.anchors_.insert(s.anchors_.end(), offsets[i], offsets[i] + d);
    s.checks_.push_back(i);
    const Anchor anchor{a, static_cast<int>(s.checks_.size()) - 1, 1};
    if (offsets.nonzeros(i) == 0) {
      if (zero.indices.empty()) zero.anchor = anchor;
      zero.indices.push_back(i);
      continue;
    }
    ReduceRound r;
    r.shift.assign(offsets[i], offsets[i] + d);
    r.edges.push_back({{Buffer::send, i}, s.temp_slots_++, {Buffer::recv, 0}, anchor});
    phase.rounds.push_back(std::move(r));
    ++s.volume_;
  }
  if (!zero.indices.empty()) s.leaves_.push_back(std::move(zero));
  s.rounds_ = static_cast<int>(phase.rounds.size());
  if (!phase.rounds.empty()) s.phases_.push_back(std::move(phase));
  return s;
}

ReduceSchedule ReduceSchedule::combining(const Offsets& offsets) {
  const int d = offsets.d();
  ReduceSchedule s;
  s.d_ = d;
  s.combining_ = true;
  const AllgatherTree tree(offsets, increasing_ck_order(offsets));
  const auto& nodes = tree.nodes();
  s.checks_ = tree.leaf_order();
  s.volume_ = tree.hop_edges();
  // Partial slots: the root and its 0-chain use the receive buffer, a 0 child shares its parent's
  // slot, a hop child gets a temporary slot; a hop leaf with a single offset is the caller's own
  // contribution itself and needs no slot.
  std::vector<Slot> slot(nodes.size());
  slot[0] = {Buffer::recv, 0};
  for (std::size_t n = 1; n < nodes.size(); ++n) {
    const TreeNode& node = nodes[n];
    if (node.value == 0) {
      slot[n] = slot[static_cast<std::size_t>(node.parent)];
    } else if (node.level == d && node.leaf_last - node.leaf_first == 1) {
      slot[n] = {Buffer::send, s.checks_[static_cast<std::size_t>(node.leaf_first)]};
    } else {
      slot[n] = {Buffer::temp, s.temp_slots_++};
    }
  }
  auto anchor_of = [&](std::size_t n) {
    const int a = static_cast<int>(s.anchors_.size()) / d;
    s.anchors_.insert(s.anchors_.end(), nodes[n].prefix.begin(), nodes[n].prefix.end());
    return Anchor{a, nodes[n].leaf_first, nodes[n].leaf_last - nodes[n].leaf_first};
  };
  for (std::size_t n = 1; n < nodes.size(); ++n) {
    const TreeNode& node = nodes[n];
    if (node.level != d || slot[n].buffer == Buffer::send) continue;
    ReduceLeaf leaf{slot[n], {}, anchor_of(n)};
    for (int pos = node.leaf_first; pos < node.leaf_last; ++pos)
      leaf.indices.push_back(s.checks_[static_cast<std::size_t>(pos)]);
    s.leaves_.push_back(std::move(leaf));
  }
  // Phase p reduces level d-p into level d-p-1 along dimension order[d-p-1].
  for (int level = d; level >= 1; --level) {
    const int dim = tree.order()[static_cast<std::size_t>(level - 1)];
    std::map<int, ReduceRound> rounds;
    for (std::size_t n = 1; n < nodes.size(); ++n) {
      const TreeNode& node = nodes[n];
      if (node.level != level || node.value == 0) continue;
      ReduceRound& r = rounds[node.value];
      if (r.shift.empty()) {
        r.shift.assign(static_cast<std::size_t>(d), 0);
        r.shift[static_cast<std::size_t>(dim)] = node.value;
      }
      r.edges.push_back({slot[n], s.temp_slots_++, slot[static_cast<std::size_t>(node.parent)], anchor_of(n)});
    }
    ReducePhase phase{dim, {}};
    for (auto& [value, r] : rounds) phase.rounds.push_back(std::move(r));
    s.rounds_ += static_cast<int>(phase.rounds.size());
    if (!phase.rounds.empty()) s.phases_.push_back(std::move(phase));
  }
  return s;
}

}  // namespace cartex::cart
