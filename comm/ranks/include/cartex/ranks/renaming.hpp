// Rank renaming of NESUS'14 section III.2: a process keeps its place but behaves as another rank
// during a collective, so that the ring of consecutive (virtual) ranks stays inside nodes.
#pragma once

#include <vector>

#include "cartex/ranks/layout.hpp"

namespace cartex::ranks {

// Equation (1): f_SQ(p) = ((p * Q) mod P) + floor(p / M), Q = P / M. Turns a round-robin mapping
// into a sequential one (rank p behaves as f_SQ(p)). Requires M dividing P and 0 <= p < P.
int f_sq(int p, int procs, int nodes);

// Equation (2): f_RR(p) = ((p * M) mod P) + floor(p / Q), the inverse of f_SQ.
int f_rr(int p, int procs, int nodes);

// A bijection between real ranks and the virtual ranks a renamed algorithm runs on.
class Renaming {
 public:
  // The identity on `procs` ranks (plain Ring).
  static Renaming identity(int procs);
  // Ring*: virtual ranks that are consecutive within every node. Sequential layouts keep their
  // ranks; round-robin layouts use f_SQ / f_RR (equations 1 and 2); irregular layouts number
  // the ranks node by node (the extension of the paper's section IV, possible because the whole
  // layout is known).
  static Renaming sequential_for(const NodeLayout& layout);

  // The virtual rank process `rank` behaves as.
  int virtual_of(int rank) const { return virtual_[static_cast<std::size_t>(rank)]; }
  // The real rank behaving as virtual rank `v`.
  int real_of(int v) const { return real_[static_cast<std::size_t>(v)]; }
  // Number of ranks.
  int size() const { return static_cast<int>(real_.size()); }

 private:
  explicit Renaming(std::vector<int> virtual_of_rank);
  std::vector<int> virtual_, real_;
};

}  // namespace cartex::ranks
