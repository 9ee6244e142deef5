// Deterministic test graphs (std::mt19937 gives the same stream on every process).
#include "graphs.hpp"
#include "mpi_world.hpp"

#include <random>

namespace graphtest {

Graph erdos_renyi(int procs, double density, unsigned seed) {
  Graph g{"erdos_renyi(d=" + std::to_string(density) + ",seed=" + std::to_string(seed) + ")",
          std::vector<std::vector<int>>(static_cast<std::size_t>(procs))};
  std::mt19937 rng(seed);
  for (int p = 0; p < procs; ++p)
    for (int q = 0; q < procs; ++q) {
      const bool edge = static_cast<double>(rng() % 100000) < density * 100000.0;
      if (edge && p != q) g.out[static_cast<std::size_t>(p)].push_back(q);
    }
  return g;
}

Graph moore(int procs, int d, int r, bool periodic) {
  Graph g{"moore(D=" + std::to_string(d) + ",R=" + std::to_string(r) + (periodic ? ",torus)" : ",mesh)"),
          std::vector<std::vector<int>>(static_cast<std::size_t>(procs))};
  std::vector<int> dims(static_cast<std::size_t>(d), 0);
  MPI_Dims_create(procs, d, dims.data());
  const int side = 2 * r + 1;
  std::vector<int> stride(static_cast<std::size_t>(d), 1);
  for (int k = d - 2; k >= 0; --k) stride[k] = stride[k + 1] * dims[k + 1];
  int offsets = 1;
  for (int k = 0; k < d; ++k) offsets *= side;
  for (int p = 0; p < procs; ++p) {
    std::vector<int> c(static_cast<std::size_t>(d));
    for (int k = d - 1, rest = p; k >= 0; --k) c[k] = rest % dims[k], rest /= dims[k];
    for (int o = 0; o < offsets; ++o) {
      int rank = 0, code = o;
      bool inside = true, zero = true;
      for (int k = d - 1; k >= 0; --k) {
        const int off = code % side - r;
        code /= side;
        zero = zero && off == 0;
        int x = c[k] + off;
        if (periodic) x = ((x % dims[k]) + dims[k]) % dims[k];
        inside = inside && x >= 0 && x < dims[k];
        rank += x * stride[k];
      }
      if (!zero && inside) g.out[static_cast<std::size_t>(p)].push_back(rank);
    }
  }
  return g;
}

Graph isolated_ranks(int procs) {
  Graph g = erdos_renyi(procs, 0.6, 7);
  g.name = "isolated_ranks";
  for (int p = 0; p < procs; ++p) {
    auto& out = g.out[static_cast<std::size_t>(p)];
    if (p == 0 || p == procs - 1) out.clear();
    std::vector<int> kept;
    for (int q : out)
      if (q != 0 && q != procs - 1) kept.push_back(q);
    out = kept;
  }
  return g;
}

Graph self_loops_and_repeats(int procs) {
  Graph g{"self_loops_and_repeats", std::vector<std::vector<int>>(static_cast<std::size_t>(procs))};
  for (int p = 0; p < procs; ++p)
    g.out[static_cast<std::size_t>(p)] = {(p + 1) % procs, p, (p + 2) % procs, (p + 1) % procs};
  return g;
}

Graph complete(int procs) {
  Graph g = erdos_renyi(procs, 1.0, 1);
  g.name = "complete";
  return g;
}

Graph upper_triangle(int procs) {
  Graph g{"upper_triangle", std::vector<std::vector<int>>(static_cast<std::size_t>(procs))};
  for (int p = 0; p < procs; ++p)
    for (int q = p + 1; q < procs; ++q) g.out[static_cast<std::size_t>(p)].push_back(q);
  return g;
}

MPI_Comm create_comm(const Graph& g) {
  const int me = cartex::test::world_rank();
  const std::vector<int>& out = g.out[static_cast<std::size_t>(me)];
  std::vector<int> in;
  for (std::size_t q = 0; q < g.out.size(); ++q)
    for (int t : g.out[q])
      if (t == me) in.push_back(static_cast<int>(q));
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(in.size()), in.data(), MPI_UNWEIGHTED,
                                 static_cast<int>(out.size()), out.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm);
  return comm;
}

}  // namespace graphtest
