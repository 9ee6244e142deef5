// Counting the messages of a halo exchange on a process grid under a node layout.
#include <stdexcept>

#include "cartex/ranks/grid_reordering.hpp"
#include "grid_index.hpp"

namespace cartex::ranks {

Traffic halo_traffic(const std::vector<int>& dims, const std::vector<int>& periods,
                     const std::vector<HaloNeighbor>& neighbors, const NodeLayout& layout,
                     const GridAssignment& assignment) {
  const int cells = detail::volume(dims);
  if (periods.size() != dims.size() || static_cast<int>(assignment.rank_of_cell.size()) != cells ||
      layout.size() != cells)
    throw std::invalid_argument("cartex::ranks::halo_traffic: dims, periods, assignment and layout disagree");
  Traffic t;
  for (int g = 0; g < cells; ++g) {
    const std::vector<int> c = detail::coords(g, dims);
    for (const HaloNeighbor& n : neighbors) {
      if (n.offset.size() != dims.size()) throw std::invalid_argument("cartex::ranks::halo_traffic: offset dimension");
      std::vector<int> to(c);
      bool inside = true;
      for (std::size_t i = 0; i < dims.size(); ++i) {
        to[i] += n.offset[i];
        if (periods[i]) to[i] = ((to[i] % dims[i]) + dims[i]) % dims[i];
        inside = inside && to[i] >= 0 && to[i] < dims[i];
      }
      if (!inside) continue;
      const int from_rank = assignment.rank_of_cell[static_cast<std::size_t>(g)];
      const int to_rank = assignment.rank_of_cell[static_cast<std::size_t>(detail::index(to, dims))];
      const bool inter = layout.node_of(from_rank) != layout.node_of(to_rank);
      t.messages += 1;
      t.bytes += n.bytes;
      t.inter_node_messages += inter ? 1 : 0;
      t.inter_node_bytes += inter ? n.bytes : 0;
    }
  }
  return t;
}

}  // namespace cartex::ranks
