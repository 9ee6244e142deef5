// The oracle of cartbench --check, and which implementations this build has.
#include <cstdint>
#include <string>
#include <vector>

#include "config.hpp"

namespace cartbench {

namespace {

// Implementations on a dist graph (MPI_Dist_graph_create_adjacent, MPI_Neighbor_*, comm/graph).
bool on_dist_graph(const std::string& impl) {
  return impl == "mpi_neighbor" || impl == "mpi_ineighbor" || impl == "graph_combining" || impl == "graph_combining_init";
}

}  // namespace

std::vector<std::string> default_impls() {
  std::vector<std::string> all = {"mpi_neighbor", "mpi_ineighbor", "direct", "combining", "combining_packed",
                                  "combining_init", "combining_packed_init", "auto", "auto_init",
                                  "graph_combining", "graph_combining_init"};
  std::vector<std::string> out;
  for (const std::string& impl : all)
    if (unavailable_reason(impl).empty()) out.push_back(impl);
  return out;
}

std::string unavailable_reason(const std::string& impl) {
#ifdef CARTEX_NO_DIST_GRAPH
  if (on_dist_graph(impl)) return impl + " is unavailable in this build: " CARTEX_NO_DIST_GRAPH;
#else
  (void)on_dist_graph;
#endif
  (void)impl;
  return "";
}

std::vector<int> geometric_sources(const std::vector<int>& dims, bool periodic, const std::vector<int>& offsets, int rank) {
  const int d = static_cast<int>(dims.size());
  std::vector<int> coord(dims.size());
  for (int k = d - 1, rest = rank; k >= 0; --k) {
    coord[static_cast<std::size_t>(k)] = rest % dims[static_cast<std::size_t>(k)];
    rest /= dims[static_cast<std::size_t>(k)];
  }
  std::vector<int> out;
  const std::size_t t = offsets.size() / dims.size();
  for (std::size_t i = 0; i < t; ++i) {
    int r = 0;
    bool inside = true;
    for (int k = 0; k < d; ++k) {
      const int n = dims[static_cast<std::size_t>(k)];
      int x = coord[static_cast<std::size_t>(k)] - offsets[i * dims.size() + static_cast<std::size_t>(k)];
      if (periodic) x = ((x % n) + n) % n;
      else if (x < 0 || x >= n) inside = false;
      r = r * n + x;
    }
    out.push_back(inside ? r : MPI_PROC_NULL);
  }
  return out;
}

int oracle_value(int sender, int block, int element) {
  std::uint64_t x = static_cast<std::uint64_t>(sender) * 0x9E3779B97F4A7C15ull +
                    static_cast<std::uint64_t>(block) * 0xBF58476D1CE4E5B9ull +
                    static_cast<std::uint64_t>(element) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 29;
  return static_cast<int>(x & 0x3fffffff);
}

}  // namespace cartbench
