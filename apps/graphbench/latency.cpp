// Neighbor allgather latency: MPI_Neighbor_allgather ("Def"), the combining schedule built per call
// ("Opt-Nonpersist") and the persistent plan ("Opt-Persist"), for 4 B .. 4 KiB blocks on random
// graphs and Moore neighborhoods, plus the pattern construction time (the paper's phase 1).
#include <fmt/core.h>
#include <mpi.h>

#include <memory>

#include "cartex/core/mpi_check.hpp"
#include "bench.hpp"
#include "benchstats/timing.hpp"
#include "cartex/graph/collectives.hpp"
#include "graphs.hpp"

namespace graphbench {

using cartex::core::check_mpi;
namespace {

void bench_topology(const Options& o, const Topology& t) {
  int me = 0;
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &me), "MPI_Comm_rank");
  MPI_Comm comm = create_comm(t);
  check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const auto pattern = cartex::graph::Pattern::build(comm, o.theta);
  double build = pattern->build_seconds(), slowest = 0.0;
  check_mpi(MPI_Allreduce(&build, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  int pairings = pattern->pairings(), pairings_total = 0;
  check_mpi(MPI_Allreduce(&pairings, &pairings_total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  if (me == 0)
    fmt::print("\n{}: theta {}, iterations {}, pairings {}, max stages {} (naive {}), pattern build {:.1f} us\n", t.name,
               o.theta, pattern->iterations(), pairings_total / 2, pattern->max_stages(), pattern->max_naive_stages(),
               slowest * 1e6);
  const std::size_t sources = pattern->sources().size();
  for (int bytes : o.sizes) {
    std::vector<char> send(static_cast<std::size_t>(bytes), static_cast<char>(me));
    std::vector<char> recv(static_cast<std::size_t>(bytes) * sources + 1), recv2 = recv, recv3 = recv;
    auto plan = cartex::graph::neighbor_allgather_init(send.data(), bytes, MPI_BYTE, recv3.data(), bytes, MPI_BYTE, pattern);
    std::vector<benchstats::Cell> cells = {
        {"mpi",
         [&] {
           check_mpi(MPI_Neighbor_allgather(send.data(), bytes, MPI_BYTE, recv.data(), bytes, MPI_BYTE, comm),
                     "MPI_Neighbor_allgather");
         },
         {}},
        {"combining",
         [&] { cartex::graph::neighbor_allgather(send.data(), bytes, MPI_BYTE, recv2.data(), bytes, MPI_BYTE, pattern); },
         {}},
        {"combining_init", [&] { plan.execute(); }, {}}};
    const benchstats::Method method{o.warmup, o.reps, o.series, o.tukey, o.seed + static_cast<unsigned>(bytes)};
    const auto s = benchstats::time_and_summarize(cells, method, MPI_COMM_WORLD, benchstats::Quantile::lower);
    if (me == 0)
      for (std::size_t i = 0; i < cells.size(); ++i)
        fmt::print("  {:>5} B  {:<15} median {:8.2f} us  CI [{:8.2f}, {:8.2f}]  ratio to mpi {:.2f}\n", bytes,
                   cells[i].label, s[i].median * 1e6, s[i].ci_low * 1e6, s[i].ci_high * 1e6, s[i].median / s[0].median);
  }
  check_mpi(MPI_Comm_free(&comm), "MPI_Comm_free");
}

}  // namespace

void run_latency(const Options& o) {
  int procs = 0;
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &procs), "MPI_Comm_size");
  for (double d : o.densities) bench_topology(o, erdos_renyi(procs, d, o.seed));
  for (const std::string& m : o.moore) {
    const auto colon = m.find(':');
    bench_topology(o, moore(procs, std::stoi(m.substr(0, colon)), std::stoi(m.substr(colon + 1))));
  }
}

}  // namespace graphbench
