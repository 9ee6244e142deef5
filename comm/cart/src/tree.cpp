// Algorithm 2 (ICPP'19): the allgather tree, built level by level in a given dimension order by
// sorting each node's offsets on the next coordinate (std::stable_sort in place of the paper's
// bucket sort; O(t log t) per level, well under a millisecond for t = 3124).
#include "cartex/cart/tree.hpp"

#include <algorithm>
#include <utility>

namespace cartex::cart {

AllgatherTree::AllgatherTree(const Offsets& offsets, std::vector<int> order) : order_(std::move(order)) {
  const int d = offsets.d();
  const int t = offsets.t();
  // members[n] = offsets of node n, sorted so that every child is a contiguous run.
  std::vector<int> members(static_cast<std::size_t>(t));
  for (int i = 0; i < t; ++i) members[static_cast<std::size_t>(i)] = i;
  struct Range {
    int first, last;
  };
  std::vector<Range> range;
  TreeNode root;
  root.prefix.assign(static_cast<std::size_t>(d), 0);
  nodes_.push_back(root);
  range.push_back({0, t});
  // Breadth-first: nodes of level k are expanded on dimension order_[k].
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    const int level = nodes_[n].level;
    if (level == d) continue;
    const int dim = order_[static_cast<std::size_t>(level)];
    auto first = members.begin() + range[n].first;
    auto last = members.begin() + range[n].last;
    std::stable_sort(first, last, [&](int a, int b) { return offsets[a][dim] < offsets[b][dim]; });
    for (int s = range[n].first; s < range[n].last;) {
      const int value = offsets[members[static_cast<std::size_t>(s)]][dim];
      int e = s;
      while (e < range[n].last && offsets[members[static_cast<std::size_t>(e)]][dim] == value) ++e;
      TreeNode child;
      child.parent = static_cast<int>(n);
      child.level = level + 1;
      child.value = value;
      child.prefix = nodes_[n].prefix;
      child.prefix[static_cast<std::size_t>(dim)] = value;
      const int id = static_cast<int>(nodes_.size());
      nodes_[n].children.push_back(id);
      if (value == 0) nodes_[n].zero_child = id;
      else ++hop_edges_;
      nodes_.push_back(std::move(child));
      range.push_back({s, e});
      s = e;
    }
  }
  // The sorted member array lists every subtree contiguously: it is the depth-first leaf order.
  leaf_order_ = members;
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    nodes_[n].leaf_first = range[n].first;
    nodes_[n].leaf_last = range[n].last;
  }
}

}  // namespace cartex::cart
