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

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "benchstats/csv.hpp"
#include "benchstats/timing.hpp"
#include "cartex/cart/cx_cart.h"
#include "cartex/cart/model.hpp"
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

// MPI_Alltoallw's arguments on MPI_COMM_WORLD for one (op, m): per peer rank one derived datatype of
// the blocks going to (coming from) it in offset order (a peer may be several neighbors), count 0
// to every other rank. Frees its datatypes.
struct AlltoallwArgs {
  std::vector<int> scounts, sdispls, rcounts, rdispls;
  std::vector<MPI_Datatype> stypes, rtypes;
  std::vector<MPI_Datatype> owned;
  AlltoallwArgs() = default;
  AlltoallwArgs(const AlltoallwArgs&) = delete;
  AlltoallwArgs& operator=(const AlltoallwArgs&) = delete;
  ~AlltoallwArgs() {
    for (MPI_Datatype& type : owned) cartex::core::check_mpi_nothrow(MPI_Type_free(&type), "MPI_Type_free");
  }
  // One side: `peer[i]` gets (gives) `count[i]` ints at `displ[i]` ints from the buffer, in offset order.
  void side(int p, const std::vector<int>& peer, const std::vector<int>& count, const std::vector<int>& displ,
            std::vector<int>& counts, std::vector<int>& displs, std::vector<MPI_Datatype>& types) {
    counts.assign(static_cast<std::size_t>(p), 0);
    displs.assign(static_cast<std::size_t>(p), 0);
    types.assign(static_cast<std::size_t>(p), MPI_INT);
    std::map<int, std::pair<std::vector<int>, std::vector<MPI_Aint>>> blocks;  // peer -> lengths, byte displacements
    for (std::size_t i = 0; i < peer.size(); ++i) {
      if (peer[i] == MPI_PROC_NULL || count[i] == 0) continue;
      blocks[peer[i]].first.push_back(count[i]);
      blocks[peer[i]].second.push_back(static_cast<MPI_Aint>(displ[i]) * static_cast<MPI_Aint>(sizeof(int)));
    }
    for (auto& [q, b] : blocks) {
      MPI_Datatype type;
      const int n = static_cast<int>(b.first.size());
      check_mpi(MPI_Type_create_hindexed(n, b.first.data(), b.second.data(), MPI_INT, &type), "MPI_Type_create_hindexed");
      owned.push_back(type);
      check_mpi(MPI_Type_commit(&owned.back()), "MPI_Type_commit");
      counts[static_cast<std::size_t>(q)] = 1;
      types[static_cast<std::size_t>(q)] = owned.back();
    }
  }
};

// What one benchmark cell measures (its benchstats::Cell at the same index does the timing).
struct CellInfo {
  std::string op;
  int m;
  std::string impl;
  struct Buffers* buffers;
};

// The buffers and argument arrays of one (op, m) pair, shared by all implementations.
struct Buffers {
  std::vector<int> send, recv, counts, displs;
  std::vector<int> scounts, sdispls, rcounts, rdispls;  // compacted to existing targets / sources
  std::vector<int> ucounts_out, udispls_out, ucounts_in, udispls_in;  // alltoall as alltoallv on the graph
  AlltoallwArgs w;                                                     // mpi_alltoallw (made when asked for)
};

constexpr int kSentinel = -7;  // receive buffers before a checked run: a block left untouched shows as this

// cartbench --check: every cell run once more on the oracle's data (oracle_value of sender, block,
// element) into a receive buffer of sentinels, then every element of every block compared at every
// rank with what the geometry alone says it must hold (geometric_sources), the blocks of
// MPI_PROC_NULL sources and the gaps between blocks included (they must stay sentinels). The
// implementations on a dist graph are not checked here (their block order on repeated neighbors is the
// MPI library's; tests/cart compares them). Throws when any element at any rank differs. With --reps 0
// the checked run, timed like benchstats times a repetition, is the cell's only sample.
void check_cells(const Config& c, const std::vector<int>& dims, const std::vector<int>& offsets,
                 const std::vector<CellInfo>& info, std::vector<benchstats::Cell>& cells) {
  const int rank = cartex::core::comm_rank(MPI_COMM_WORLD), p = cartex::core::comm_size(MPI_COMM_WORLD);
  const int t = static_cast<int>(offsets.size()) / c.d;
  const std::vector<int> src = geometric_sources(dims, !c.mesh, offsets, rank);
  long long local[3] = {0, 0, 0};  // blocks checked, blocks wrong, elements wrong
  std::string first;
  std::vector<long long> per_cell;  // blocks wrong per cell at this rank
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const CellInfo& cell = info[k];
    if (cell.impl == "mpi_neighbor" || cell.impl == "mpi_ineighbor" || cell.impl.rfind("graph_", 0) == 0) {
      per_cell.push_back(-1);
      continue;
    }
    Buffers& B = *cell.buffers;
    const int m = cell.m;
    const bool v = cell.op == "alltoallv", gather = cell.op == "allgather";
    auto count = [&](int i) { return v ? B.counts[static_cast<std::size_t>(i)] : m; };
    auto displ = [&](int i) { return v ? B.displs[static_cast<std::size_t>(i)] : i * m; };
    std::fill(B.send.begin(), B.send.end(), kSentinel);
    if (gather)
      for (int e = 0; e < m; ++e) B.send[static_cast<std::size_t>(e)] = oracle_value(rank, 0, e);
    else
      for (int i = 0; i < t; ++i)
        for (int e = 0; e < count(i); ++e) B.send[static_cast<std::size_t>(displ(i) + e)] = oracle_value(rank, i, e);
    std::fill(B.recv.begin(), B.recv.end(), kSentinel);
    check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    const double t0 = MPI_Wtime();
    cells[k].run();
    double slowest = MPI_Wtime() - t0;
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    // --reps 0: the checked run is the cell's one sample (a simulation without computation is deterministic).
    if (c.reps == 0) cells[k].samples.push_back(slowest);
    std::vector<int> expect(B.recv.size(), kSentinel);
    for (int i = 0; i < t; ++i) {
      const int from = src[static_cast<std::size_t>(i)];
      if (from == MPI_PROC_NULL) continue;
      for (int e = 0; e < count(i); ++e) expect[static_cast<std::size_t>(displ(i) + e)] = oracle_value(from, gather ? 0 : i, e);
    }
    long long wrong_blocks = 0;
    for (int i = 0; i < t; ++i) {
      bool bad = false;
      const int end = i + 1 < t ? displ(i + 1) : static_cast<int>(B.recv.size());  // the block and the gap after it
      for (int j = displ(i); j < end; ++j) {
        if (B.recv[static_cast<std::size_t>(j)] == expect[static_cast<std::size_t>(j)]) continue;
        bad = true;
        ++local[2];
        if (first.empty())
          first = fmt::format("rank {}: {} {} m={} block {} element {}: got {}, expected {}", rank, cell.impl, cell.op, m, i,
                              j - displ(i), B.recv[static_cast<std::size_t>(j)], expect[static_cast<std::size_t>(j)]);
      }
      ++local[0];
      wrong_blocks += bad;
    }
    local[1] += wrong_blocks;
    per_cell.push_back(wrong_blocks);
  }
  long long total[3] = {0, 0, 0};
  check_mpi(MPI_Allreduce(local, total, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  std::vector<long long> cell_total(per_cell.size(), 0);
  check_mpi(MPI_Reduce(per_cell.data(), cell_total.data(), static_cast<int>(per_cell.size()), MPI_LONG_LONG, MPI_SUM, 0,
                       MPI_COMM_WORLD),
            "MPI_Reduce");
  // The first wrong element of the lowest rank that has one, for the message.
  int lowest = total[1] > 0 && !first.empty() ? rank : p;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (rank == 0) {
    for (std::size_t k = 0; k < cells.size(); ++k)
      if (per_cell[k] >= 0)
        fmt::print("check {:<10} {:>4} {:<21} {} blocks at {} ranks, {} wrong\n", info[k].op, info[k].m, info[k].impl,
                   static_cast<long long>(t) * p, p, cell_total[k]);
      else
        fmt::print("check {:<10} {:>4} {:<21} not checked (on a dist graph)\n", info[k].op, info[k].m, info[k].impl);
    fmt::print("checked: {} blocks at {} ranks against the oracle, {} wrong ({} elements)\n", total[0], p, total[1], total[2]);
  }
  if (total[1] > 0) {
    if (rank == lowest) std::fprintf(stderr, "cartbench --check: first wrong element: %s\n", first.c_str());
    check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    throw cartex::core::Error(fmt::format("cartbench --check: {} of {} blocks differ from the oracle", total[1], total[0]));
  }
}

}  // namespace

void run_collectives(const Config& c) {
  int p = 0, rank = 0;
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &p), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  const std::vector<int> dims = dims_of(c, p), offsets = offsets_of(c);
  const int t = static_cast<int>(offsets.size()) / c.d;
  // One neighbourhood communicator per schedule that --impl asks for (direct always: the queries below
  // use it), not all four: each is a Cartesian communicator and comm/cart's traffic communicator, and
  // under SimGrid SMPI every communicator costs each rank a group of P entries (docs/scale.md).
  const std::map<std::string, std::pair<const char*, const char*>> kinds = {{"direct", {"direct", "zerocopy"}},
                                                                          {"combining", {"combining", "zerocopy"}},
                                                                          {"combining_packed", {"combining", "packed"}},
                                                                          {"auto", {"auto", "auto"}}};
  std::map<std::string, MPI_Comm> nb;
  nb["direct"] = create(c, dims, offsets, "direct", "zerocopy");
  for (const std::string& impl : c.impls) {
    const bool init = impl.size() > 5 && impl.compare(impl.size() - 5, 5, "_init") == 0;
    const std::string kind = init ? impl.substr(0, impl.size() - 5) : impl;
    const auto k = kinds.find(kind);
    if (k != kinds.end() && !nb.count(kind)) nb[kind] = create(c, dims, offsets, k->second.first, k->second.second);
  }
  // The MPI reference: a dist graph with the same (existing) neighbors, made only when an implementation
  // on it is asked for (an MPI without dist graphs, SimGrid SMPI, runs the others).
  bool dist_graph = false;
  for (const std::string& impl : c.impls)
    dist_graph = dist_graph || impl == "mpi_neighbor" || impl == "mpi_ineighbor" || impl.rfind("graph_", 0) == 0;
  int indeg = 0, outdeg = 0;
  check_cx(CX_Cart_neighbor_graph_count(nb["direct"], &indeg, &outdeg));
  MPI_Comm graph = MPI_COMM_NULL;
  std::shared_ptr<const cartex::graph::Pattern> pattern;
  if (dist_graph) {
    std::vector<int> sources(static_cast<std::size_t>(indeg) + 1), targets(static_cast<std::size_t>(outdeg) + 1);
    check_cx(CX_Cart_neighbor_graph_get(nb["direct"], indeg, sources.data(), MPI_UNWEIGHTED, outdeg, targets.data(),
                                        MPI_UNWEIGHTED));
    check_mpi(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, sources.data(), MPI_UNWEIGHTED, outdeg, targets.data(),
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph),
              "MPI_Dist_graph_create_adjacent");
    // The general-graph message combining of comm/graph (HiPC'17) on the same dist graph.
    pattern = cartex::graph::Pattern::build(graph);
  }
  const cc::Offsets off(c.d, offsets);
  std::vector<int> all_sources(static_cast<std::size_t>(t) + 1), all_targets(static_cast<std::size_t>(t) + 1);
  check_cx(CX_Cart_neighbor_get(nb["direct"], t, all_sources.data(), MPI_UNWEIGHTED, t, all_targets.data(), MPI_UNWEIGHTED));
  all_sources.resize(static_cast<std::size_t>(t));
  all_targets.resize(static_cast<std::size_t>(t));
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
        if (impl == "mpi_alltoallw") {
          // SMPI's (or the MPI's) MPI_Alltoallw on MPI_COMM_WORLD with the neighbors' blocks: the MPI baseline
          // where dist graphs are unavailable. Allgather sends its one block to every target.
          if (B.w.owned.empty()) {
            std::vector<int> scount(static_cast<std::size_t>(t)), sdispl(static_cast<std::size_t>(t));
            std::vector<int> rcount(static_cast<std::size_t>(t)), rdispl(static_cast<std::size_t>(t));
            for (int i = 0; i < t; ++i) {
              const std::size_t k = static_cast<std::size_t>(i);
              scount[k] = rcount[k] = op == "alltoallv" ? B.counts[k] : m;
              sdispl[k] = op == "alltoallv" ? B.displs[k] : op == "allgather" ? 0 : i * m;
              rdispl[k] = op == "alltoallv" ? B.displs[k] : i * m;
            }
            B.w.side(p, all_targets, scount, sdispl, B.w.scounts, B.w.sdispls, B.w.stypes);
            B.w.side(p, all_sources, rcount, rdispl, B.w.rcounts, B.w.rdispls, B.w.rtypes);
          }
          run = [s, r, &B] {
            check_mpi(MPI_Alltoallw(s, B.w.scounts.data(), B.w.sdispls.data(), B.w.stypes.data(), r, B.w.rcounts.data(),
                                    B.w.rdispls.data(), B.w.rtypes.data(), MPI_COMM_WORLD),
                      "MPI_Alltoallw");
          };
        } else if (impl == "mpi_neighbor") {
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
        info.push_back({op, m, impl, &B});
        cells.push_back({impl, run, {}});
      }
    }
  // What auto decides from (comm/cart state.cpp): the alpha, beta its ping-pong measures on this machine
  // (or simulated platform) and the ICPP'19 cut-off m < (alpha/beta)(t-C)/(V-t), printed to check it.
  if (std::any_of(c.impls.begin(), c.impls.end(), [](const std::string& i) { return i.rfind("auto", 0) == 0; })) {
    const cc::LinearModel lm = cc::measure_linear_model(MPI_COMM_WORLD);
    int nonzero = 0;
    for (int i = 0; i < t; ++i) nonzero += off.nonzeros(i) != 0;
    const cc::Schedule a2a = cc::alltoall_schedule(off), ag = cc::allgather_schedule(off);
    if (rank == 0)
      fmt::print("auto's model: alpha={:.4g} s beta={:.4g} s/B; combining when m < {:.1f} ints (alltoall), {:.1f} (allgather)\n",
                 lm.alpha, lm.beta, cc::combining_cutoff_bytes(nonzero, a2a.rounds(), a2a.volume(), lm) / sizeof(int),
                 cc::combining_cutoff_bytes(nonzero, ag.rounds(), ag.volume(), lm) / sizeof(int));
  }
  if (c.reps > 0) {
    benchstats::time_cells(cells, {c.warmup, c.reps, c.series, c.tukey, c.seed}, MPI_COMM_WORLD);
  } else {
    // One checked run per cell is the sample; auto's first call (its measurement and choice: set-up, not the
    // collective) is made before it, --warmup times.
    for (std::size_t k = 0; k < cells.size(); ++k)
      if (info[k].impl.rfind("auto", 0) == 0)
        for (int w = 0; w < std::max(c.warmup, 1); ++w) cells[k].run();
  }
  if (c.check) check_cells(c, dims, offsets, info, cells);
  if (rank == 0) {
    const cc::Schedule a2a = cc::alltoall_schedule(off), ag = cc::allgather_schedule(off);
    std::map<std::pair<std::string, int>, double> baseline;
    // The ratio's baseline: MPI_Neighbor_* where it is measured, else cartex's trivial t-round algorithm
    // (ICPP'19 Listing 4, impl direct): under SMPI the neighbourhood collectives are unavailable.
    const std::string base_impl =
        std::find(c.impls.begin(), c.impls.end(), "mpi_neighbor") != c.impls.end() ? "mpi_neighbor" : "direct";
    std::vector<benchstats::Summary> sums;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      sums.push_back(benchstats::summarize(cells[i].samples, c.tukey));
      if (info[i].impl == base_impl) baseline[{info[i].op, info[i].m}] = sums.back().median;
    }
    std::string grid;
    for (std::size_t k = 0; k < dims.size(); ++k) grid += (k ? "x" : "") + std::to_string(dims[k]);
    fmt::print("neighborhood {} t={} on {} processes ({}{}), {} series x {} reps, Tukey k={}\n",
               neighborhood_name(c), t, p, grid, c.mesh ? " mesh" : " torus", c.series, c.reps, c.tukey);
    fmt::print("{:<10} {:>4} {:<21} {:>11} {:>23} {:>8}\n", "op", "m", "impl", "median[us]", "95% CI [us]",
               base_impl == "direct" ? "/direct" : "/mpi");
    benchstats::CsvWriter csv(c.csv,
                              "label,neighborhood,d,t,procs,grid,periodic,op,m,impl,C,V,samples,kept,"
                              "median_us,ci_low_us,ci_high_us,mean_us,min_us,ratio_to_" + base_impl);
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
      const bool is_auto = cell.impl == "auto" || cell.impl == "auto_init" || cell.impl.rfind("graph_", 0) == 0 ||
                           cell.impl == "mpi_alltoallw";  // no cart schedule
      csv.row({c.label, neighborhood_name(c), std::to_string(c.d), std::to_string(t), std::to_string(p), grid,
               c.mesh ? "0" : "1", cell.op, std::to_string(cell.m), cell.impl, std::to_string(is_auto ? -1 : rounds),
               std::to_string(is_auto ? -1LL : volume), std::to_string(s.samples), std::to_string(s.kept),
               benchstats::fixed(s.median * 1e6), benchstats::fixed(s.ci_low * 1e6), benchstats::fixed(s.ci_high * 1e6),
               benchstats::fixed(s.mean * 1e6), benchstats::fixed(s.min * 1e6), benchstats::fixed(ratio)});
    }
  }
  for (CX_Cart_plan& plan : plans) check_cx(CX_Cart_plan_free(&plan));
  if (graph != MPI_COMM_NULL) check_mpi(MPI_Comm_free(&graph), "MPI_Comm_free");
  for (auto& [name, comm] : nb) check_mpi(MPI_Comm_free(&comm), "MPI_Comm_free");
}

}  // namespace cartbench
