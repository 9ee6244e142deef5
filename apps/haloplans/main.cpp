// haloplans: heat3d's halo exchange without Kokkos, for simulated clusters (docs/scale.md "Halo").
// The same code as heat3d builds its plans from -- core's grid, ProcessGrid::create, Decomposition and
// named stencils, comm/halo's HaloGeometry (exact k-deep halos, owner offsets) -- gives every rank its
// blocks: the cells of its halo each neighbour owns (receive) and the cells of its block in each
// neighbour's halo (send), in the z, y, x order both sides share. The blocks, as doubles, are exchanged
// by comm/cart's CX_Cart_alltoallv on the Cartesian neighbourhood of the owner offsets (the
// neighbourhood -> schedule path of the cart_direct and cart_combining_packed backends), with every
// received cell checked against the value its owner sent (a function of the global cell). What it does
// not have: comm/halo's HaloPattern and backends (they include Kokkos), hence no heat3d --dry-run here:
// the prediction is its direct_stats rule (one message per non-empty block to an existing target, 8
// bytes a cell) applied to the geometry's blocks, and each rank's received blocks and bytes must equal
// it, as must the totals sent.
//   smpirun ... haloplans --grid 256,256,256 --stencil 27pt --k 2 --algorithm direct,combining [--execution packed]
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cartex/cart/cx_cart.h"
#include "cartex/cart/error.hpp"
#include "cartex/cart/neighborhood.hpp"
#include "cartex/cart/schedule.hpp"
#include "cartex/core/decomposition.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/core/stencil_registry.hpp"
#include "cartex/entry/mpi_session.hpp"
#include "cartex/entry/run_main.hpp"
#include "cartex/halo/geometry.hpp"

namespace {

using cartex::cart::check_cx;
using cartex::core::check_mpi;
namespace core = cartex::core;
namespace halo = cartex::halo;

// The value the owner of global cell g sends for it (wrapped into the grid).
double cell_value(const core::GlobalGrid& grid, std::array<long, 3> g) {
  std::uint64_t x = 0;
  for (int d = 2; d >= 0; --d) {
    const long n = grid.n[d];
    x = x * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(((g[d] % n) + n) % n);
  }
  return static_cast<double>(x) + 0.25;
}

struct Options {
  std::vector<long> n = {128, 128, 128};
  std::string stencil = "7pt";
  int k = 1;
  bool mesh = false;
  std::vector<std::string> algorithms = {"direct", "combining"};
  std::string execution;  // cx_execution; empty: heat3d's backends' (direct zerocopy, combining packed)
};

// The stencil of a name as heat3d's input names it: a builtin or registered name (7pt, 27pt, ...) or
// starN, the star of order N (input stencil: {type: star, order: N}).
core::Stencil stencil_of(const std::string& name, const core::GlobalGrid& grid) {
  if (name.rfind("star", 0) == 0 && name.size() > 4 && !core::is_registered_stencil(name)) {
    try {
      return core::make_star_stencil(std::stoi(name.substr(4)), grid);
    } catch (const std::invalid_argument& e) {
      throw core::InputError("haloplans: --stencil " + name + ": " + e.what());
    }
  }
  try {
    return core::make_named_stencil(name, grid);
  } catch (const std::invalid_argument& e) {
    throw core::InputError(std::string("haloplans: --stencil: ") + e.what());
  }
}

// What set-up builds on every rank (before any communication).
struct Setup {
  core::GlobalGrid grid;
  std::optional<core::Decomposition> decomp;
  std::optional<halo::HaloGeometry> geo;
};

void set_up(const Options& o, Setup& s) {
  s.grid.dim = 3;
  for (int d = 0; d < 3; ++d) s.grid.n[d] = o.n[static_cast<std::size_t>(d)], s.grid.periodic[d] = !o.mesh;
  try {
    const core::ProcessGrid procs = core::ProcessGrid::create(s.grid, {0, 0, 0}, core::comm_size(MPI_COMM_WORLD));
    s.decomp.emplace(s.grid, procs);
    s.geo.emplace(*s.decomp, stencil_of(o.stencil, s.grid), o.k);
  } catch (const std::invalid_argument& e) {
    throw core::InputError(std::string("haloplans: ") + e.what());
  }
}

int run(const Options& o, const Setup& s) {
  const int rank = core::comm_rank(MPI_COMM_WORLD), p = core::comm_size(MPI_COMM_WORLD);
  const core::GlobalGrid& grid = s.grid;
  const core::ProcessGrid& procs = s.decomp->procs();
  const halo::HaloGeometry& geo = *s.geo;
  const std::vector<core::Offset>& owners = geo.owner_offsets();
  const int t = static_cast<int>(owners.size());
  std::map<core::Offset, int> index;
  for (int i = 0; i < t; ++i) index[owners[static_cast<std::size_t>(i)]] = i;
  const std::array<int, 3> c = procs.coords(rank);
  const halo::ProcCoord me{c[0], c[1], c[2]};
  // Receive block i: my halo cells owned by the process at me + owner_i (the source, at -o_i).
  std::vector<std::vector<std::array<long, 3>>> recv(static_cast<std::size_t>(t)), send(static_cast<std::size_t>(t));
  geo.for_each_halo_cell(me, [&](const std::array<long, 3>& cell, const core::Offset& off) {
    recv[static_cast<std::size_t>(index.at(off))].push_back(cell);
  });
  // Send block i: the cells of my block in the halo of the target at me - owner_i that it gets from me.
  const core::Box mine = geo.box(me);
  for (int i = 0; i < t; ++i) {
    const core::Offset& w = owners[static_cast<std::size_t>(i)];
    const halo::ProcCoord target{me[0] - w[0], me[1] - w[1], me[2] - w[2]};
    bool exists = true;
    for (int d = 0; d < 3; ++d) exists = exists && (!o.mesh || (target[d] >= 0 && target[d] < procs.dims[d]));
    if (!exists) continue;
    geo.for_each_halo_cell_in(target, mine, [&](const std::array<long, 3>& cell, const core::Offset& off) {
      if (off == w) send[static_cast<std::size_t>(i)].push_back(cell);
    });
  }
  // The prediction (comm/halo's direct_stats rule on these blocks) and the buffers.
  std::vector<int> scounts, sdispls, rcounts, rdispls, neighbourhood;
  long long predicted[4] = {0, 0, 0, 0};  // messages sent, bytes sent, blocks expected, bytes expected
  int at = 0, rat = 0;
  for (int i = 0; i < t; ++i) {
    const auto& s = send[static_cast<std::size_t>(i)];
    const auto& r = recv[static_cast<std::size_t>(i)];
    scounts.push_back(static_cast<int>(s.size()));
    sdispls.push_back(at);
    at += scounts.back();
    rcounts.push_back(static_cast<int>(r.size()));
    rdispls.push_back(rat);
    rat += rcounts.back();
    predicted[0] += !s.empty();
    predicted[1] += 8LL * static_cast<long long>(s.size());
    predicted[2] += !r.empty();
    predicted[3] += 8LL * static_cast<long long>(r.size());
    const core::Offset& w = owners[static_cast<std::size_t>(i)];
    neighbourhood.insert(neighbourhood.end(), {-w[0], -w[1], -w[2]});
  }
  std::vector<double> sbuf(static_cast<std::size_t>(at) + 1), rbuf(static_cast<std::size_t>(rat) + 1);
  for (int i = 0; i < t; ++i)
    for (std::size_t j = 0; j < send[static_cast<std::size_t>(i)].size(); ++j)
      sbuf[static_cast<std::size_t>(sdispls[static_cast<std::size_t>(i)]) + j] = cell_value(grid, send[static_cast<std::size_t>(i)][j]);
  const std::array<int, 3> periods{o.mesh ? 0 : 1, o.mesh ? 0 : 1, o.mesh ? 0 : 1};
  long long totals[4] = {0, 0, 0, 0};
  check_mpi(MPI_Allreduce(predicted, totals, 4, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  long long most[2] = {predicted[0], predicted[1]}, most_all[2] = {0, 0};
  check_mpi(MPI_Allreduce(most, most_all, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  const cartex::cart::Offsets off(3, neighbourhood);
  const cartex::cart::Schedule combining = cartex::cart::alltoall_schedule(off);
  if (rank == 0) {
    fmt::print("halo of {} k={} on {}x{}x{} cells ({}), {} processes ({}x{}x{}): t={} blocks, widths lo {},{},{} hi {},{},{}\n",
               o.stencil, o.k, grid.n[0], grid.n[1], grid.n[2], o.mesh ? "mesh" : "torus", p, procs.dims[0], procs.dims[1],
               procs.dims[2], t, geo.widths().lo[0], geo.widths().lo[1], geo.widths().lo[2], geo.widths().hi[0],
               geo.widths().hi[1], geo.widths().hi[2]);
    fmt::print("prediction (direct_stats rule): {} messages, {} bytes in all; at most {} messages, {} bytes per rank; "
               "combining schedule C={} V={}\n",
               totals[0], totals[1], most_all[0], most_all[1], combining.rounds(), combining.volume());
  }
  int failed = 0;
  for (const std::string& algorithm : o.algorithms) {
    MPI_Info info;
    check_mpi(MPI_Info_create(&info), "MPI_Info_create");
    check_mpi(MPI_Info_set(info, "cx_algorithm", algorithm.c_str()), "MPI_Info_set");
    // The execution as heat3d's cart_direct (zerocopy) and cart_combining_packed (packed) backends fix it.
    // Never left to comm/cart's default (auto): its first call would time both executions (2 x 9 runs,
    // barriers and an allreduce) inside the timed exchange.
    const std::string execution = !o.execution.empty() ? o.execution : algorithm == "combining" ? "packed" : "zerocopy";
    check_mpi(MPI_Info_set(info, "cx_execution", execution.c_str()), "MPI_Info_set");
    MPI_Comm comm = MPI_COMM_NULL;
    check_cx(CX_Cart_neighborhood_create(MPI_COMM_WORLD, 3, procs.dims.data(), periods.data(), t, neighbourhood.data(),
                                         MPI_UNWEIGHTED, info, 0, &comm));
    check_mpi(MPI_Info_free(&info), "MPI_Info_free");
    std::fill(rbuf.begin(), rbuf.end(), -1.0);
    check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    const double t0 = MPI_Wtime();
    check_cx(CX_Cart_alltoallv(sbuf.data(), scounts.data(), sdispls.data(), MPI_DOUBLE, rbuf.data(), rcounts.data(),
                               rdispls.data(), MPI_DOUBLE, comm));
    double slowest = MPI_Wtime() - t0;
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    // Every received cell against its owner's value; what arrived against the prediction.
    long long got[4] = {0, 0, 0, 0};  // blocks received, bytes received, wrong cells, ranks off the prediction
    for (int i = 0; i < t; ++i) {
      const auto& r = recv[static_cast<std::size_t>(i)];
      bool arrived = false;
      for (std::size_t j = 0; j < r.size(); ++j) {
        const double v = rbuf[static_cast<std::size_t>(rdispls[static_cast<std::size_t>(i)]) + j];
        got[2] += v != cell_value(grid, r[j]);
        arrived = arrived || v != -1.0;
      }
      got[0] += arrived;
      got[1] += arrived ? 8LL * static_cast<long long>(r.size()) : 0;
    }
    got[3] = got[0] != predicted[2] || got[1] != predicted[3];
    long long all[4] = {0, 0, 0, 0};
    check_mpi(MPI_Allreduce(got, all, 4, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    const bool ok = all[2] == 0 && all[3] == 0 && all[0] == totals[0] && all[1] == totals[1] && totals[0] == totals[2];
    if (rank == 0)
      fmt::print("{:<10} {:>10.2f} us simulated; received {} blocks, {} bytes in all (predicted {}, {}); wrong cells {}; "
                 "ranks off their prediction {}: {}\n",
                 algorithm, slowest * 1e6, all[0], all[1], totals[0], totals[1], all[2], all[3], ok ? "ok" : "FAILED");
    failed += !ok;
    check_mpi(MPI_Comm_free(&comm), "MPI_Comm_free");
  }
  if (failed > 0) throw core::Error("haloplans: the exchange differs from the prediction or the owners' values");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (!cartex::entry::init_mpi(&argc, &argv, "haloplans")) return core::kExitFailure;
  Options o;
  CLI::App app{"haloplans: heat3d's halo plans (stencil -> neighbourhood -> schedule) without Kokkos, checked"};
  app.add_option("--grid", o.n, "cells per dimension (3)")->delimiter(',')->expected(3);
  app.add_option("--stencil", o.stencil, "a builtin or registered stencil name (7pt, 27pt, star8, ...)");
  app.add_option("--k", o.k, "steps per exchange (halo depth in stencil steps)");
  app.add_flag("--mesh", o.mesh, "non-periodic in every dimension (default periodic)");
  app.add_option("--algorithm", o.algorithms, "cx_algorithm values: direct, combining")->delimiter(',');
  app.add_option("--execution", o.execution,
                 "cx_execution: zerocopy, packed or auto (default: direct zerocopy, combining packed, as heat3d's "
                 "cart_direct and cart_combining_packed backends)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return cartex::entry::finalize_mpi(rc == 0 ? 0 : core::kExitInputError, "haloplans");
  }
  Setup s;
  const int rc = cartex::entry::run_main(MPI_COMM_WORLD, [&] { set_up(o, s); }, [&] { return run(o, s); });
  return cartex::entry::finalize_mpi(rc, "haloplans");
}
