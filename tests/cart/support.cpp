// Test support (see support.hpp).
#include "support.hpp"

#include <random>

#include "cartex/cart/neighborhood_families.hpp"

namespace carttest {
namespace {

std::vector<int> dims_for(int p, int d) {
  std::vector<int> dims(static_cast<std::size_t>(d), 0);
  MPI_Dims_create(p, d, dims.data());
  return dims;
}

std::vector<int> all(int d, int v) { return std::vector<int>(static_cast<std::size_t>(d), v); }

}  // namespace

std::vector<Case> cases(int p) {
  namespace cc = cartex::cart;
  std::vector<Case> out;
  // d = 1: repeats, zero offsets, offsets beyond the grid (wrap several times).
  out.push_back({"d1_repeat_zero_wrap_periodic", {p}, {1}, {1, -1, 0, 2, 1, -3, 2 * p + 1, 0, -2 * p}});
  out.push_back({"d1_repeat_zero_wrap_mesh", {p}, {0}, {1, -1, 0, 2, 1, -3, 2 * p + 1, 0, -2 * p}});
  out.push_back({"d2_moore1_periodic", dims_for(p, 2), all(2, 1), cc::moore_offsets(2, 1)});
  out.push_back({"d2_moore1_mesh", dims_for(p, 2), all(2, 0), cc::moore_offsets(2, 1)});
  out.push_back({"d2_moore3_mixed", dims_for(p, 2), {1, 0}, cc::moore_offsets(2, 3)});
  out.push_back({"d2_vonneumann2_mixed", dims_for(p, 2), {0, 1}, cc::von_neumann_offsets(2, 2)});
  out.push_back({"d3_moore1_periodic", dims_for(p, 3), all(3, 1), cc::moore_offsets(3, 1)});
  out.push_back({"d3_moore1_mesh", dims_for(p, 3), all(3, 0), cc::moore_offsets(3, 1)});
  out.push_back({"d3_asym_n4_fm1_mixed", dims_for(p, 3), {1, 0, 1}, cc::dnf_offsets(3, 4, -1)});
  out.push_back({"d3_vonneumann3_periodic", dims_for(p, 3), all(3, 1), cc::von_neumann_offsets(3, 3)});
  out.push_back({"d4_vonneumann1_mixed", dims_for(p, 4), {1, 0, 0, 1}, cc::von_neumann_offsets(4, 1)});
  out.push_back({"d4_moore1_periodic", dims_for(p, 4), all(4, 1), cc::moore_offsets(4, 1)});
  // Dimensions of size 1 and 2: one process is several neighbors at once.
  const int two = p % 2 == 0 ? 2 : 1;
  const std::vector<int> small = {two, 1, p / two};
  std::vector<int> repeated = cc::moore_offsets(3, 1);
  repeated.insert(repeated.end(), {1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, -1, -2, 1, 1});
  out.push_back({"small_dims_periodic", small, all(3, 1), repeated});
  out.push_back({"small_dims_mesh", small, all(3, 0), repeated});
  out.push_back({"small_dims_mixed", small, {1, 0, 1}, repeated});
  // Random offsets in [-3, 3]^3 with duplicates, the same on every process.
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> coord(-3, 3);
  std::vector<int> random;
  for (int i = 0; i < 14 * 3; ++i) random.push_back(coord(rng));
  random.insert(random.end(), random.begin(), random.begin() + 6);
  out.push_back({"random_mixed", dims_for(p, 3), {0, 1, 0}, random});
  return out;
}

int value(std::uint64_t seed, int a, int b, int c) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(a) * 0xBF58476D1CE4E5B9ull +
                    static_cast<std::uint64_t>(b) * 0x94D049BB133111EBull + static_cast<std::uint64_t>(c) * 0x2545F4914F6CDD1Dull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 29;
  return static_cast<int>(x & 0x3fffffff);
}

MPI_Comm create(const Case& c, const char* algorithm, const char* execution, bool check) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cx_algorithm", algorithm);
  MPI_Info_set(info, "cx_execution", execution);
  MPI_Info_set(info, "cx_check_isomorphic", check ? "true" : "false");
  MPI_Comm comm = MPI_COMM_NULL;
  CX_Cart_neighborhood_create(MPI_COMM_WORLD, c.d(), c.dims.data(), c.periods.data(), c.t(), c.offsets.data(),
                              MPI_UNWEIGHTED, info, 0, &comm);
  MPI_Info_free(&info);
  return comm;
}

MPI_Comm reference_graph(MPI_Comm cartcomm) {
  int in = 0, out = 0;
  CX_Cart_neighbor_graph_count(cartcomm, &in, &out);
  std::vector<int> sources(static_cast<std::size_t>(in) + 1), targets(static_cast<std::size_t>(out) + 1);
  CX_Cart_neighbor_graph_get(cartcomm, in, sources.data(), MPI_UNWEIGHTED, out, targets.data(), MPI_UNWEIGHTED);
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(cartcomm, in, sources.data(), MPI_UNWEIGHTED, out, targets.data(), MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &graph);
  return graph;
}

std::vector<int> neighbors(MPI_Comm cartcomm, int sign) {
  int t = 0;
  CX_Cart_neighbor_count(cartcomm, &t);
  std::vector<int> s(static_cast<std::size_t>(t) + 1), g(static_cast<std::size_t>(t) + 1);
  CX_Cart_neighbor_get(cartcomm, t, s.data(), MPI_UNWEIGHTED, t, g.data(), MPI_UNWEIGHTED);
  s.resize(static_cast<std::size_t>(t));
  g.resize(static_cast<std::size_t>(t));
  return sign < 0 ? s : g;
}

std::vector<int> geometric_neighbors(const Case& c, int rank, int sign) {
  const int d = c.d();
  std::vector<int> coord(static_cast<std::size_t>(d));
  for (int k = d - 1, rest = rank; k >= 0; --k) {
    coord[static_cast<std::size_t>(k)] = rest % c.dims[static_cast<std::size_t>(k)];
    rest /= c.dims[static_cast<std::size_t>(k)];
  }
  std::vector<int> out;
  for (int i = 0; i < c.t(); ++i) {
    int r = 0;
    bool inside = true;
    for (int k = 0; k < d; ++k) {
      const int n = c.dims[static_cast<std::size_t>(k)];
      int x = coord[static_cast<std::size_t>(k)] + sign * c.offsets[static_cast<std::size_t>(i * d + k)];
      if (c.periods[static_cast<std::size_t>(k)]) x = ((x % n) + n) % n;
      else if (x < 0 || x >= n) inside = false;
      r = r * n + x;
    }
    out.push_back(inside ? r : MPI_PROC_NULL);
  }
  return out;
}

}  // namespace carttest
