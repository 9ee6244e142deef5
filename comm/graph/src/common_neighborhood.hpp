// The common-neighborhood matrix M of HiPC'17 section IV-B1: one row per active out-neighbor n
// of this process, listing n's active in-neighbors. A rank q appearing in k rows has k active
// out-neighbors in common with this process.
#pragma once

#include <mpi.h>

#include <map>
#include <vector>

namespace cartex::graph::detail {

// Rows of M for the current active neighbor sets Oa / Ia (Algorithm 1 lines 1 and 23).
class CommonNeighborhood {
 public:
  // Collective over the graph: sends Ia to every process in Ia and receives Ia(n) from every n in
  // Oa, which is the paper's "query each outgoing neighbor about its incoming neighbors".
  static CommonNeighborhood exchange(MPI_Comm comm, int me, const std::vector<int>& active_out,
                                     const std::vector<int>& active_in);

  // Friends (Algorithm 1 line 2): ranks other than this one with at least theta common rows,
  // mapped to the number of common out-neighbors.
  std::map<int, int> friends(int theta) const;
  // The common out-neighbors with q (Algorithm 1 line 8), ascending.
  std::vector<int> common_with(int q) const;

 private:
  std::vector<int> out_;                // the row labels n (ascending)
  std::vector<std::vector<int>> rows_;  // Ia(n) without this process, ascending
};

}  // namespace cartex::graph::detail
