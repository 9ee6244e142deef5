// Algorithm 2 (ICPP'19): the message-combining allgather schedule, a breadth-first traversal of
// the allgather tree built in increasing C_k order (section 3.2; Figure 2 prefers this order).
//
// Phase k sends along dimension order[k]; its rounds are the distinct non-zero values of the hop
// edges between levels k and k+1, every edge carrying the block its parent holds. Storage: a hop
// node whose 0-chain reaches a leaf keeps its block in that leaf's receive block (the block is final
// there), any other hop node gets a temporary slot of its own. Every slot is written exactly once
// per call and only read in later phases, so no round reads and writes the same place; this
// replaces the paper's representative-index alternation, which can make a phase read and write
// one slot (for example offsets (1,1,1) and (1,0,1) sharing the representative of node (1)).
#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "cartex/cart/schedule.hpp"
#include "cartex/cart/tree.hpp"

namespace cartex::cart {

std::vector<int> increasing_ck_order(const Offsets& offsets) {
  std::vector<int> order(static_cast<std::size_t>(offsets.d()));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> ck(order.size());
  for (int k = 0; k < offsets.d(); ++k) ck[static_cast<std::size_t>(k)] = offsets.distinct_nonzero(k);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return ck[static_cast<std::size_t>(a)] < ck[static_cast<std::size_t>(b)]; });
  return order;
}

Schedule allgather_schedule(const Offsets& offsets, std::vector<int> order) {
  const int d = offsets.d();
  if (order.empty()) order = increasing_ck_order(offsets);
  const AllgatherTree tree(offsets, order);
  const auto& nodes = tree.nodes();
  const auto& leaves = tree.leaf_order();
  ScheduleParts p;
  p.collective = Collective::allgather;
  p.combining = true;
  p.volume = tree.hop_edges();
  // Leaf index (first offset index of the leaf) reached from a node over 0 edges only, or -1.
  auto zero_chain_leaf = [&](int n) {
    while (nodes[static_cast<std::size_t>(n)].level < d) {
      n = nodes[static_cast<std::size_t>(n)].zero_child;
      if (n < 0) return -1;
    }
    return leaves[static_cast<std::size_t>(nodes[static_cast<std::size_t>(n)].leaf_first)];
  };
  std::vector<Slot> holder(nodes.size());
  holder[0] = {Buffer::send, 0};
  for (std::size_t n = 1; n < nodes.size(); ++n) {
    const TreeNode& node = nodes[n];
    if (node.value == 0) {
      holder[n] = holder[static_cast<std::size_t>(node.parent)];
      continue;
    }
    const int leaf = zero_chain_leaf(static_cast<int>(n));
    if (leaf >= 0) {
      holder[n] = {Buffer::recv, leaf};
    } else {
      holder[n] = {Buffer::temp, static_cast<int>(p.temp_mirror.size())};
      p.temp_mirror.push_back({Buffer::send, 0});
    }
  }
  // The block of a subtree's edge comes from origin = sender - prefix(parent) and is significant
  // when some leaf of the subtree lies inside the mesh: its check range is the subtree's leaves.
  p.checks = leaves;
  auto anchor_of = [&](const std::vector<int>& prefix) {
    const int a = static_cast<int>(p.anchors.size()) / d;
    for (int j = 0; j < d; ++j) p.anchors.push_back(-prefix[static_cast<std::size_t>(j)]);
    return a;
  };
  // Breadth-first: nodes are stored by level, so one pass per level collects that phase.
  for (int level = 0; level < d; ++level) {
    const int dim = order[static_cast<std::size_t>(level)];
    std::map<int, Round> rounds;
    for (std::size_t n = 1; n < nodes.size(); ++n) {
      const TreeNode& node = nodes[n];
      if (node.level != level + 1 || node.value == 0) continue;
      Round& r = rounds[node.value];
      if (r.shift.empty()) {
        r.shift.assign(static_cast<std::size_t>(d), 0);
        r.shift[static_cast<std::size_t>(dim)] = node.value;
      }
      const TreeNode& parent = nodes[static_cast<std::size_t>(node.parent)];
      const Anchor anchor{anchor_of(parent.prefix), node.leaf_first, node.leaf_last - node.leaf_first};
      r.transfers.push_back({holder[static_cast<std::size_t>(node.parent)], holder[n], anchor});
    }
    Phase phase{dim, {}};
    for (auto& [value, r] : rounds) phase.rounds.push_back(std::move(r));
    if (!phase.rounds.empty()) p.phases.push_back(std::move(phase));
  }
  // Leaves: the zero offset copies the send block; repeated offsets copy the first receive block.
  for (std::size_t n = 1; n < nodes.size(); ++n) {
    const TreeNode& node = nodes[n];
    if (node.level != d) continue;
    for (int pos = node.leaf_first; pos < node.leaf_last; ++pos) {
      const int i = leaves[static_cast<std::size_t>(pos)];
      if (holder[n].buffer == Buffer::recv && holder[n].index == i) continue;
      const Anchor anchor{anchor_of(node.prefix), pos, 1};
      p.local_copies.push_back({holder[n], {Buffer::recv, i}, anchor});
    }
  }
  return Schedule(offsets, std::move(p));
}

}  // namespace cartex::cart
