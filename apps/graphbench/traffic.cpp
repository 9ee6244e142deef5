// What one machine can measure about nodes: inter-node messages and bytes under simulated
// layouts (ring vs Ring*, halo exchange with and without node-block reordering), and the time
// overhead of renaming against plain ring here.
#include <fmt/core.h>
#include <mpi.h>

#include <cstdint>

#include "cartex/core/mpi_check.hpp"
#include "bench.hpp"
#include "benchstats/timing.hpp"
#include "cartex/ranks/allreduce.hpp"
#include "cartex/ranks/grid_reordering.hpp"

namespace graphbench {
namespace {

namespace cr = cartex::ranks;

std::vector<cr::HaloNeighbor> faces(std::size_t d, std::int64_t bytes) {
  std::vector<cr::HaloNeighbor> n;
  for (std::size_t i = 0; i < d; ++i)
    for (int s : {-1, 1}) {
      cr::HaloNeighbor h{std::vector<int>(d, 0), bytes};
      h.offset[i] = s;
      n.push_back(h);
    }
  return n;
}

}  // namespace

void run_traffic(const Options& o) {
  int me = 0;
  cartex::core::check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &me), "MPI_Comm_rank");
  if (me != 0) return;
  fmt::print("ring allreduce of {} doubles: inter-node messages / MiB per call\n", o.count);
  fmt::print("| P | Q | mapping | ring msgs | ring MiB | ring_renamed msgs | ring_renamed MiB |\n|---|---|---|---|---|---|---|\n");
  for (int p : o.procs)
    for (int q : o.ppn)
      for (cr::Mapping m : {cr::Mapping::sequential, cr::Mapping::round_robin}) {
        if (p % q || p == q) continue;
        const cr::NodeLayout layout = cr::simulated_layout(p, q, m);
        const cr::Traffic a = cr::ring_traffic(layout, cr::Renaming::identity(p), o.count, 8);
        const cr::Traffic b = cr::ring_traffic(layout, cr::Renaming::sequential_for(layout), o.count, 8);
        fmt::print("| {} | {} | {} | {} | {:.2f} | {} | {:.2f} |\n", p, q, cr::to_string(m), a.inter_node_messages,
                   a.inter_node_bytes / 1048576.0, b.inter_node_messages, b.inter_node_bytes / 1048576.0);
      }
  fmt::print("\nhalo exchange, 6 faces of {} B per process, non-periodic grid: inter-node messages / MiB per exchange\n",
             o.face_bytes);
  fmt::print("| grid | Q | mapping | identity msgs | identity MiB | reordered msgs | reordered MiB | node block |\n"
             "|---|---|---|---|---|---|---|---|\n");
  for (const std::vector<int>& dims : {std::vector<int>{4, 4, 4}, std::vector<int>{8, 8, 8}, o.grid})
    for (int q : o.ppn)
      for (cr::Mapping m : {cr::Mapping::sequential, cr::Mapping::round_robin}) {
        int p = 1;
        for (int x : dims) p *= x;
        if (p % q) continue;
        const std::vector<int> periods(dims.size(), 0);
        const auto nb = faces(dims.size(), o.face_bytes);
        const cr::NodeLayout layout = cr::simulated_layout(p, q, m);
        const cr::Traffic a = cr::halo_traffic(dims, periods, nb, layout, cr::identity_assignment(dims));
        const cr::GridAssignment g = cr::node_block_assignment(dims, periods, nb, layout);
        const cr::Traffic b = cr::halo_traffic(dims, periods, nb, layout, g);
        std::string block = g.block.empty() ? "identity" : "";
        for (std::size_t i = 0; i < g.block.size(); ++i) block += (i ? "x" : "") + std::to_string(g.block[i]);
        fmt::print("| {}x{}x{} | {} | {} | {} | {:.2f} | {} | {:.2f} | {} |\n", dims[0], dims[1], dims[2], q,
                   cr::to_string(m), a.inter_node_messages, a.inter_node_bytes / 1048576.0, b.inter_node_messages,
                   b.inter_node_bytes / 1048576.0, block);
      }
}

void run_ring_overhead(const Options& o) {
  int me = 0;
  cartex::core::check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &me), "MPI_Comm_rank");
  if (me == 0) {
    const cr::NodeLayout layout = cr::layout_from_env(MPI_COMM_WORLD);
    fmt::print("layout: {} ranks, {} nodes, {}\n", layout.size(), layout.nodes(), cr::to_string(layout.mapping()));
  } else {
    cr::layout_from_env(MPI_COMM_WORLD);
  }
  for (int count : o.ring_counts) {
    std::vector<double> in(static_cast<std::size_t>(count) + 1, 1.0 + me), out(in.size());
    std::vector<benchstats::Cell> cells;
    for (cr::Algorithm a : {cr::Algorithm::mpi, cr::Algorithm::ring, cr::Algorithm::ring_renamed})
      cells.push_back(
          {cr::to_string(a), [&, a] { cr::allreduce(in.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, a); }, {}});
    const benchstats::Method method{o.warmup, o.reps, o.series, o.tukey, o.seed + static_cast<unsigned>(count)};
    const auto s = benchstats::time_and_summarize(cells, method, MPI_COMM_WORLD, benchstats::Quantile::lower);
    if (me == 0)
      for (std::size_t i = 0; i < cells.size(); ++i)
        fmt::print("  {:>7} doubles  {:<13} median {:9.2f} us  CI [{:9.2f}, {:9.2f}]  ratio to ring {:.3f}\n", count,
                   cells[i].label, s[i].median * 1e6, s[i].ci_low * 1e6, s[i].ci_high * 1e6, s[i].median / s[1].median);
  }
}

}  // namespace graphbench
