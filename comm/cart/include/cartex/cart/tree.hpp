// The allgather tree of Algorithm 2 (ICPP'19): a trie over the offsets, one level per dimension in
// a chosen order. Shared by the combining allgather (edges root -> leaves) and the combining
// reductions (the same edges traversed leaves -> root).
#pragma once

#include <vector>

#include "cartex/cart/schedule.hpp"

namespace cartex::cart {

// One node: the distinct prefix (coordinates of order[0..level-1]) of some offsets.
struct TreeNode {
  int parent = -1;
  int level = 0;
  int value = 0;           // coordinate of dimension order[level-1] on the edge from the parent
  int zero_child = -1;     // child over a 0 edge (no communication), -1 if none
  std::vector<int> children;
  int leaf_first = 0;      // offsets of the subtree: leaf_order()[leaf_first, leaf_last)
  int leaf_last = 0;
  std::vector<int> prefix; // d ints: the node's position relative to the root
};

// Trie of the offsets in a dimension order; nodes in breadth-first order, children by value.
class AllgatherTree {
 public:
  AllgatherTree(const Offsets& offsets, std::vector<int> order);

  // The dimension processed at each level.
  const std::vector<int>& order() const { return order_; }
  // Nodes, breadth-first; node 0 is the root.
  const std::vector<TreeNode>& nodes() const { return nodes_; }
  // Offset indices in depth-first leaf order (every subtree is a contiguous range).
  const std::vector<int>& leaf_order() const { return leaf_order_; }
  // Edges with a non-zero value: the per-process allgather volume V (Proposition 3.3).
  long long hop_edges() const { return hop_edges_; }

 private:
  std::vector<int> order_;
  std::vector<TreeNode> nodes_;
  std::vector<int> leaf_order_;
  long long hop_edges_ = 0;
};

}  // namespace cartex::cart
