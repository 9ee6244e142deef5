// Benchmark topologies, generated identically on every process.
#include "graphs.hpp"

#include <algorithm>
#include <random>

#include "cartex/core/mpi_check.hpp"

namespace graphbench {

using cartex::core::check_mpi;

Topology erdos_renyi(int procs, double density, unsigned seed) {
  Topology t{"random d=" + std::to_string(density).substr(0, 4) + " seed=" + std::to_string(seed),
             std::vector<std::vector<int>>(static_cast<std::size_t>(procs))};
  std::mt19937 rng(seed);
  for (int p = 0; p < procs; ++p)
    for (int q = 0; q < procs; ++q)
      if (static_cast<double>(rng() % 100000) < density * 100000.0 && p != q) t.out[static_cast<std::size_t>(p)].push_back(q);
  return t;
}

Topology moore(int procs, int d, int r) {
  Topology t{"moore D=" + std::to_string(d) + " R=" + std::to_string(r),
             std::vector<std::vector<int>>(static_cast<std::size_t>(procs))};
  std::vector<int> dims(static_cast<std::size_t>(d), 0);
  check_mpi(MPI_Dims_create(procs, d, dims.data()), "MPI_Dims_create");
  int offsets = 1;
  for (int k = 0; k < d; ++k) offsets *= 2 * r + 1;
  for (int p = 0; p < procs; ++p) {
    std::vector<int> c(static_cast<std::size_t>(d));
    for (int k = d - 1, rest = p; k >= 0; --k) c[k] = rest % dims[k], rest /= dims[k];
    auto& out = t.out[static_cast<std::size_t>(p)];
    for (int o = 0; o < offsets; ++o) {
      int rank = 0;
      for (int k = 0, code = o; k < d; ++k) {
        const int x = ((c[k] + code % (2 * r + 1) - r) % dims[k] + dims[k]) % dims[k];
        code /= 2 * r + 1;
        rank = rank * dims[k] + x;
      }
      if (rank != p) out.push_back(rank);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return t;
}

MPI_Comm create_comm(const Topology& t) {
  int me = 0;
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &me), "MPI_Comm_rank");
  const auto& out = t.out[static_cast<std::size_t>(me)];
  std::vector<int> in;
  for (std::size_t q = 0; q < t.out.size(); ++q)
    for (int x : t.out[q])
      if (x == me) in.push_back(static_cast<int>(q));
  MPI_Comm comm = MPI_COMM_NULL;
  check_mpi(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(in.size()), in.data(), MPI_UNWEIGHTED,
                                           static_cast<int>(out.size()), out.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm),
            "MPI_Dist_graph_create_adjacent");
  return comm;
}

}  // namespace graphbench
