// Collective timing: every implementation side by side on the same neighborhood and buffers.
// Method (ICPP'19 Appendix A, EuroMPI'15 section 7): warm-up, then several series; each series
// visits all cells (op x m x implementation) in a random order shared by all processes and times
// `reps` barrier-synchronised repetitions per cell, a sample being the slowest process's time.
// Samples are Tukey-filtered and summarised by the median with its 95% CI.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cartex/core/mpi_check.hpp"
#include "benchstats/csv.hpp"
#include "benchstats/timing.hpp"
#include "cartex/cart/cx_cart.h"
#include "cartex/cart/neighborhood.hpp"
#include "cartex/cart/schedule.hpp"
#include "cartex/graph/collectives.hpp"
#include "config.hpp"

namespace cartbench {

using cartex::cart::check_cx;  // the C API returns an MPI error class; its text is CX_Error_string
using cartex::core::check_mpi;
namespace {

namespace cc = cartex::cart;

MPI_Comm create(const Config& c, const std::vector<int>& dims, const std::vector<int>& offsets, const char* algorithm,
                const char* execution) {
  const std::vector<int> periods(dims.size(), c.mesh ? 0 : 1);
  MPI_Info info;
  check_mpi(MPI_Info_create(&info), "MPI_Info_create");
  check_mpi(MPI_Info_set(info, "cx_algorithm", algorithm), "MPI_Info_set");
  check_mpi(MPI_Info_set(info, "cx_execution", execution), "MPI_Info_set");
  MPI_Comm comm = MPI_COMM_NULL;
  const int t = static_cast<int>(offsets.size() / dims.size());
  if (CX_Cart_neighborhood_create(MPI_COMM_WORLD, c.d, dims.data(), periods.data(), t, offsets.data(), MPI_UNWEIGHTED,
                                  info, 0, &comm) != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 2);
  check_mpi(MPI_Info_free(&info), "MPI_Info_free");
  return comm;
}

// What one benchmark cell measures (its benchstats::Cell at the same index does the timing).
struct CellInfo {
  std::string op;
  int m;
  std::string impl;
};

// The buffers and argument arrays of one (op, m) pair, shared by all implementations.
struct Buffers {
  std::vector<int> send, recv, counts, displs;
  std::vector<int> scounts, sdispls, rcounts, rdispls;  // compacted to existing targets / sources
  std::vector<int> ucounts_out, udispls_out, ucounts_in, udispls_in;  // alltoall as alltoallv on the graph
};

}  // namespace

void run_collectives(const Config& c) {
  int p = 0, rank = 0;
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &p), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  const std::vector<int> dims = dims_of(c, p), offsets = offsets_of(c);
  const int t = static_cast<int>(offsets.size()) / c.d;
  std::map<std::string, MPI_Comm> nb = {{"direct", create(c, dims, offsets, "direct", "zerocopy")},
                                        {"combining", create(c, dims, offsets, "combining", "zerocopy")},
                                        {"combining_packed", create(c, dims, offsets, "combining", "packed")},
                                        {"auto", create(c, dims, offsets, "auto", "auto")}};
  // The MPI reference: a dist graph with the same (existing) neighbors.
  int indeg = 0, outdeg = 0;
  check_cx(CX_Cart_neighbor_graph_count(nb["direct"], &indeg, &outdeg));
  std::vector<int> sources(static_cast<std::size_t>(indeg) + 1), targets(static_cast<std::size_t>(outdeg) + 1);
  check_cx(CX_Cart_neighbor_graph_get(nb["direct"], indeg, sources.data(), MPI_UNWEIGHTED, outdeg, targets.data(), MPI_UNWEIGHTED));
  MPI_Comm graph;
  check_mpi(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, sources.data(), MPI_UNWEIGHTED, outdeg, targets.data(),
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph),
            "MPI_Dist_graph_create_adjacent");
  const cc::Offsets off(c.d, offsets);
  std::vector<int> all_sources(static_cast<std::size_t>(t) + 1), all_targets(static_cast<std::size_t>(t) + 1);
  check_cx(CX_Cart_neighbor_get(nb["direct"], t, all_sources.data(), MPI_UNWEIGHTED, t, all_targets.data(), MPI_UNWEIGHTED));
  // The general-graph message combining of comm/graph (HiPC'17) on the same dist graph.
  const std::shared_ptr<const cartex::graph::Pattern> pattern = cartex::graph::Pattern::build(graph);
  std::vector<std::unique_ptr<cartex::graph::Plan>> graph_plans;
  std::vector<std::unique_ptr<Buffers>> buffers;
  std::vector<CX_Cart_plan> plans;
  std::vector<CellInfo> info;
  std::vector<benchstats::Cell> cells;
  for (const std::string& op : c.ops)
    for (int m : c.m) {
      auto b = std::make_unique<Buffers>();
      b->send.assign(static_cast<std::size_t>(t) * static_cast<std::size_t>(m * std::max(c.d, 1)) + 1, rank);
      b->recv.assign(b->send.size(), 0);
      // alltoallv sizes of ICPP'19 section 4.2: m(d - z) for z non-zero coordinates, 0 to oneself.
      int at = 0;
      for (int i = 0; i < t; ++i) {
        const int z = off.nonzeros(i);
        b->counts.push_back(z == 0 ? 0 : m * (c.d - z + 1));
        b->displs.push_back(at);
        at += b->counts.back();
      }
      for (int i = 0; i < t; ++i) {
        if (all_targets[static_cast<std::size_t>(i)] != MPI_PROC_NULL) {
          b->scounts.push_back(b->counts[static_cast<std::size_t>(i)]);
          b->sdispls.push_back(b->displs[static_cast<std::size_t>(i)]);
        }
        if (all_sources[static_cast<std::size_t>(i)] != MPI_PROC_NULL) {
          b->rcounts.push_back(b->counts[static_cast<std::size_t>(i)]);
          b->rdispls.push_back(b->displs[static_cast<std::size_t>(i)]);
        }
      }
      // MPI_Neighbor_alltoall's layout on the dist graph: m ints per existing target / source.
      for (int j = 0; j < outdeg; ++j) b->ucounts_out.push_back(m), b->udispls_out.push_back(j * m);
      for (int j = 0; j < indeg; ++j) b->ucounts_in.push_back(m), b->udispls_in.push_back(j * m);
      Buffers& B = *b;
      buffers.push_back(std::move(b));
      for (const std::string& impl : c.impls) {
        std::function<void()> run;
        int* s = B.send.data();
        int* r = B.recv.data();
        if (impl == "mpi_neighbor") {
          if (op == "alltoall")
            run = [=] { check_mpi(MPI_Neighbor_alltoall(s, m, MPI_INT, r, m, MPI_INT, graph), "MPI_Neighbor_alltoall"); };
          else if (op == "allgather")
            run = [=] { check_mpi(MPI_Neighbor_allgather(s, m, MPI_INT, r, m, MPI_INT, graph), "MPI_Neighbor_allgather"); };
          else
            run = [=, &B] {
              check_mpi(MPI_Neighbor_alltoallv(s, B.scounts.data(), B.sdispls.data(), MPI_INT, r, B.rcounts.data(), B.rdispls.data(),
                                               MPI_INT, graph),
                        "MPI_Neighbor_alltoallv");
            };
        } else if (impl == "mpi_ineighbor") {
          if (op == "alltoall")
            run = [=] {
              MPI_Request q;
              check_mpi(MPI_Ineighbor_alltoall(s, m, MPI_INT, r, m, MPI_INT, graph, &q), "MPI_Ineighbor_alltoall");
              check_mpi(MPI_Wait(&q, MPI_STATUS_IGNORE), "MPI_Wait");
            };
          else if (op == "allgather")
            run = [=] {
              MPI_Request q;
              check_mpi(MPI_Ineighbor_allgather(s, m, MPI_INT, r, m, MPI_INT, graph, &q), "MPI_Ineighbor_allgather");
              check_mpi(MPI_Wait(&q, MPI_STATUS_IGNORE), "MPI_Wait");
            };
          else
            run = [=, &B] {
              MPI_Request q;
              check_mpi(MPI_Ineighbor_alltoallv(s, B.scounts.data(), B.sdispls.data(), MPI_INT, r, B.rcounts.data(), B.rdispls.data(),
                                                MPI_INT, graph, &q),
                        "MPI_Ineighbor_alltoallv");
              check_mpi(MPI_Wait(&q, MPI_STATUS_IGNORE), "MPI_Wait");
            };
        } else if (impl == "graph_combining") {
          if (op == "alltoall")
            run = [=, &B] {
              cartex::graph::neighbor_alltoallv(s, B.ucounts_out.data(), B.udispls_out.data(), MPI_INT, r, B.ucounts_in.data(),
                                                B.udispls_in.data(), MPI_INT, pattern);
            };
          else if (op == "allgather")
            run = [=] { cartex::graph::neighbor_allgather(s, m, MPI_INT, r, m, MPI_INT, pattern); };
          else
            run = [=, &B] {
              cartex::graph::neighbor_alltoallv(s, B.scounts.data(), B.sdispls.data(), MPI_INT, r, B.rcounts.data(), B.rdispls.data(),
                                                MPI_INT, pattern);
            };
        } else if (impl == "graph_combining_init") {
          if (op == "alltoall")
            graph_plans.push_back(std::make_unique<cartex::graph::Plan>(cartex::graph::neighbor_alltoallv_init(
                s, B.ucounts_out.data(), B.udispls_out.data(), MPI_INT, r, B.ucounts_in.data(), B.udispls_in.data(), MPI_INT, pattern)));
          else if (op == "allgather")
            graph_plans.push_back(
                std::make_unique<cartex::graph::Plan>(cartex::graph::neighbor_allgather_init(s, m, MPI_INT, r, m, MPI_INT, pattern)));
          else
            graph_plans.push_back(std::make_unique<cartex::graph::Plan>(cartex::graph::neighbor_alltoallv_init(
                s, B.scounts.data(), B.sdispls.data(), MPI_INT, r, B.rcounts.data(), B.rdispls.data(), MPI_INT, pattern)));
          cartex::graph::Plan* plan = graph_plans.back().get();
          run = [plan] { plan->execute(); };
        } else if (impl.size() > 5 && impl.compare(impl.size() - 5, 5, "_init") == 0 && nb.count(impl.substr(0, impl.size() - 5))) {
          CX_Cart_plan plan = nullptr;
          MPI_Comm comm = nb[impl.substr(0, impl.size() - 5)];
          if (op == "alltoall") check_cx(CX_Cart_alltoall_init(s, m, MPI_INT, r, m, MPI_INT, comm, &plan));
          else if (op == "allgather") check_cx(CX_Cart_allgather_init(s, m, MPI_INT, r, m, MPI_INT, comm, &plan));
          else
            check_cx(CX_Cart_alltoallv_init(s, B.counts.data(), B.displs.data(), MPI_INT, r, B.counts.data(), B.displs.data(), MPI_INT,
                                            comm, &plan));
          plans.push_back(plan);
          run = [plan] { check_cx(CX_Cart_plan_execute(plan)); };
        } else if (nb.count(impl)) {
          MPI_Comm comm = nb[impl];
          if (op == "alltoall") run = [=] { check_cx(CX_Cart_alltoall(s, m, MPI_INT, r, m, MPI_INT, comm)); };
          else if (op == "allgather") run = [=] { check_cx(CX_Cart_allgather(s, m, MPI_INT, r, m, MPI_INT, comm)); };
          else
            run = [=, &B] {
              check_cx(CX_Cart_alltoallv(s, B.counts.data(), B.displs.data(), MPI_INT, r, B.counts.data(), B.displs.data(), MPI_INT, comm));
            };
        } else {
          if (rank == 0) std::fprintf(stderr, "unknown implementation %s\n", impl.c_str());
          MPI_Abort(MPI_COMM_WORLD, 2);
        }
        info.push_back({op, m, impl});
        cells.push_back({impl, run, {}});
      }
    }
  benchstats::time_cells(cells, {c.warmup, c.reps, c.series, c.tukey, c.seed}, MPI_COMM_WORLD);
  if (rank == 0) {
    const cc::Schedule a2a = cc::alltoall_schedule(off), ag = cc::allgather_schedule(off);
    std::map<std::pair<std::string, int>, double> baseline;
    std::vector<benchstats::Summary> sums;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      sums.push_back(benchstats::summarize(cells[i].samples, c.tukey));
      if (info[i].impl == "mpi_neighbor") baseline[{info[i].op, info[i].m}] = sums.back().median;
    }
    std::string grid;
    for (std::size_t k = 0; k < dims.size(); ++k) grid += (k ? "x" : "") + std::to_string(dims[k]);
    fmt::print("neighborhood {} t={} on {} processes ({}{}), {} series x {} reps, Tukey k={}\n",
               neighborhood_name(c), t, p, grid, c.mesh ? " mesh" : " torus", c.series, c.reps, c.tukey);
    fmt::print("{:<10} {:>4} {:<21} {:>11} {:>23} {:>8}\n", "op", "m", "impl", "median[us]", "95% CI [us]", "/mpi");
    benchstats::CsvWriter csv(c.csv,
                              "label,neighborhood,d,t,procs,grid,periodic,op,m,impl,C,V,samples,kept,"
                              "median_us,ci_low_us,ci_high_us,mean_us,min_us,ratio_to_mpi_neighbor");
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const CellInfo& cell = info[i];
      const benchstats::Summary& s = sums[i];
      const auto base = baseline.find({cell.op, cell.m});
      const double ratio = base != baseline.end() && base->second > 0 ? s.median / base->second : 0.0;
      const cc::Schedule& sched = cell.op == "allgather" ? ag : a2a;
      const bool direct = cell.impl == "direct" || cell.impl.rfind("mpi_", 0) == 0;
      const int rounds = direct ? t : sched.rounds();
      const long long volume = direct ? t : sched.volume();
      fmt::print("{:<10} {:>4} {:<21} {:>11.2f} [{:>9.2f}, {:>9.2f}] {:>8.3f}\n", cell.op, cell.m, cell.impl,
                 s.median * 1e6, s.ci_low * 1e6, s.ci_high * 1e6, ratio);
      const bool is_auto = cell.impl == "auto" || cell.impl.rfind("graph_", 0) == 0;  // no cart schedule
      csv.row({c.label, neighborhood_name(c), std::to_string(c.d), std::to_string(t), std::to_string(p), grid,
               c.mesh ? "0" : "1", cell.op, std::to_string(cell.m), cell.impl, std::to_string(is_auto ? -1 : rounds),
               std::to_string(is_auto ? -1LL : volume), std::to_string(s.samples), std::to_string(s.kept),
               benchstats::fixed(s.median * 1e6), benchstats::fixed(s.ci_low * 1e6), benchstats::fixed(s.ci_high * 1e6),
               benchstats::fixed(s.mean * 1e6), benchstats::fixed(s.min * 1e6), benchstats::fixed(ratio)});
    }
  }
  for (CX_Cart_plan& plan : plans) check_cx(CX_Cart_plan_free(&plan));
  check_mpi(MPI_Comm_free(&graph), "MPI_Comm_free");
  for (auto& [name, comm] : nb) check_mpi(MPI_Comm_free(&comm), "MPI_Comm_free");
}

}  // namespace cartbench
