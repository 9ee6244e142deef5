// The renaming functions of NESUS'14, equations (1) and (2), and their use as a bijection.
#include "cartex/ranks/renaming.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace cartex::ranks {

int f_sq(int p, int procs, int nodes) {
  const long q = procs / nodes;
  return static_cast<int>((static_cast<long>(p) * q) % procs + p / nodes);
}

int f_rr(int p, int procs, int nodes) {
  const int q = procs / nodes;
  return static_cast<int>((static_cast<long>(p) * nodes) % procs + p / q);
}

Renaming::Renaming(std::vector<int> virtual_of_rank)
    : virtual_(std::move(virtual_of_rank)), real_(virtual_.size(), -1) {
  for (std::size_t r = 0; r < virtual_.size(); ++r) real_[static_cast<std::size_t>(virtual_[r])] = static_cast<int>(r);
}

Renaming Renaming::identity(int procs) {
  std::vector<int> v(static_cast<std::size_t>(procs));
  std::iota(v.begin(), v.end(), 0);
  return Renaming(std::move(v));
}

Renaming Renaming::sequential_for(const NodeLayout& layout) {
  const int procs = layout.size(), nodes = layout.nodes();
  std::vector<int> v(static_cast<std::size_t>(procs));
  switch (layout.mapping()) {
    case Mapping::sequential: return identity(procs);
    case Mapping::round_robin:
      for (int p = 0; p < procs; ++p) v[static_cast<std::size_t>(p)] = f_sq(p, procs, nodes);  // equation (1)
      return Renaming(std::move(v));
    case Mapping::irregular: {
      int next = 0;  // node by node, ranks ascending inside a node
      for (int n = 0; n < nodes; ++n)
        for (int r : layout.ranks_on(n)) v[static_cast<std::size_t>(r)] = next++;
      return Renaming(std::move(v));
    }
  }
  throw std::logic_error("unknown mapping");
}

}  // namespace cartex::ranks
