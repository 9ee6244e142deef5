// kernelbench: stencil-update speed against the memory bound, measured in one run.
//
// STREAM copy (b = a), scale (b = s*c) and triad (a = b + s*c) give the bandwidth the processes reach
// with Kokkos in the default execution space; a stencil update reads u and writes u' (16 bytes per
// cell when the neighbours come from cache), so copy bandwidth / 16 B is the bound in cells per
// second. Under mpiexec every process runs the same measurements at the same time (a barrier before
// each repetition, the slowest process's time): the figures are the aggregate of all processes, the
// bound of a run on that many processes (heat3d's end-to-end target). Each measurement is repeated
// and the best time reported, as STREAM does.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "benchstats/command_line.hpp"
#include "cartex/entry/kokkos_args.hpp"
#include "cartex/core/decomposition.hpp"
#include "cartex/entry/run_main.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/ordered_search.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/entry/mpi_session.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/halo/pattern.hpp"
#include "cartex/kernels/cycle_regions.hpp"
#include "cartex/kernels/stencil_update.hpp"

namespace {

// The best and the median over `repeats` of the slowest process's wall time of f (all processes start
// together): the best is the figure, the median its spread.
struct Timing {
  double best, median;
};

template <class F>
Timing timing(int repeats, F&& f) {
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    Kokkos::fence();
    cartex::core::check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    const double t0 = MPI_Wtime();
    f();
    Kokkos::fence();
    double t = MPI_Wtime() - t0;
    cartex::core::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    times.push_back(t);
  }
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  return {times.front(), n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2])};
}

template <class F>
double best_time(int repeats, F&& f) {
  return timing(repeats, std::forward<F>(f)).best;
}

struct Stream {
  double copy_gbs, scale_gbs, triad_gbs;  // all processes together
};

Stream measure_stream(long n, int repeats, int procs) {
  Kokkos::View<double*> a("a", n), b("b", n), c("c", n);
  Kokkos::deep_copy(a, 1.0);
  Kokkos::deep_copy(b, 2.0);
  Kokkos::deep_copy(c, 3.0);
  const double s = 0.5;
  const double tc = best_time(repeats, [&] {
    Kokkos::parallel_for("cartex::kernelbench::stream_copy", n, KOKKOS_LAMBDA(long i) { b(i) = a(i); });
  });
  const double ts = best_time(repeats, [&] {
    Kokkos::parallel_for("cartex::kernelbench::stream_scale", n, KOKKOS_LAMBDA(long i) { b(i) = s * c(i); });
  });
  const double tt = best_time(repeats, [&] {
    Kokkos::parallel_for("cartex::kernelbench::stream_triad", n, KOKKOS_LAMBDA(long i) { a(i) = b(i) + s * c(i); });
  });
  const double bytes = static_cast<double>(procs) * 8.0 * n;
  return {2 * bytes / tc / 1e9, 2 * bytes / ts / 1e9, 3 * bytes / tt / 1e9};
}

// A stencil to time: its name and dimension ("7pt", "star8" in 3D; "5pt", "9pt", "star8/2d" in 2D).
struct Case {
  std::string name;
  int dim;
};

Case parse_case(const std::string& spec) {
  if (spec.size() > 3 && (spec.substr(spec.size() - 3) == "/2d" || spec.substr(spec.size() - 3) == "/3d"))
    return {spec.substr(0, spec.size() - 3), spec[spec.size() - 2] - '0'};
  const auto two_d = cartex::core::builtin_stencil_names(2);
  return {spec, std::find(two_d.begin(), two_d.end(), spec) != two_d.end() ? 2 : 3};
}

cartex::core::Stencil make_stencil(const Case& c, const cartex::core::GlobalGrid& g) {
  for (int order : cartex::core::star_orders())
    if (c.name == cartex::core::star_stencil_name(order)) return cartex::core::make_star_stencil(order, g);
  return cartex::core::make_builtin_stencil(c.name, g);
}

// The processes a --temporal cycle is laid out for: each its own periodic n^3 block, or (--decompose)
// the n^3 grid split over all of them as heat3d splits it (processes.dims [0, 0, 0]).
cartex::core::Decomposition cycle_decomposition(const cartex::core::GlobalGrid& g, bool decompose, int procs) {
  return cartex::core::Decomposition(g, decompose ? cartex::core::ProcessGrid::create(g, {0, 0, 0}, procs)
                                                  : cartex::core::ProcessGrid::create(g, {1, 1, 1}, 1));
}

// One process's periodic deep-halo block for k steps per exchange: the pattern, the update and two
// fields. With --decompose the block is this rank's of heat3d's decomposition, and the pattern its
// update regions (no exchange is timed: the kernel's share of a heat3d cycle).
struct CycleBench {
  cartex::halo::HaloGeometry geometry;
  cartex::halo::HaloPattern pattern;
  cartex::kernels::StencilOperator op;
  cartex::core::Field u, v;
  // What heat3d's pass adds at a cycle's end on this block: the periodic x ghosts of each row, and
  // each plane's y ghost rows, where x (and y) are periodic on one process -- the cells its p2p plan's
  // self copy then skips (fillable_ghost_dims, apps/driver/src/stepper.cpp). Only with --decompose.
  cartex::kernels::PeriodicGhosts app_ghosts = cartex::kernels::PeriodicGhosts::kAsComputed;

  CycleBench(const cartex::core::Stencil& s, const cartex::core::GlobalGrid& g, int k, bool decompose, int rank, int procs)
      : geometry(cycle_decomposition(g, decompose, procs), s, k),
        pattern(cartex::halo::make_halo_pattern(geometry, decompose ? rank : 0)),
        op(s, pattern.layout),
        u("u", pattern.layout),
        v("v", pattern.layout) {
    Kokkos::deep_copy(u.view, 1.0);
    Kokkos::deep_copy(v.view, 1.0);
    if (!decompose) return;
    const int filled = cartex::halo::make_halo_plan("p2p", {pattern, MPI_COMM_WORLD, &geometry})->fillable_ghost_dims();
    app_ghosts = filled == 2   ? cartex::kernels::PeriodicGhosts::kXY
                 : filled == 1 ? cartex::kernels::PeriodicGhosts::kX
                               : cartex::kernels::PeriodicGhosts::kAsComputed;
  }
  // A cycle of k steps (step j updating the block dilated k - j times), in skewed tiles of tile_y rows
  // (0: one sweep per step), leaving `ghosts` as heat3d's last pass of a cycle does: the best and the
  // median of `repeats`.
  Timing time(const cartex::core::Stencil& s, int k, long tile_y, int repeats,
              cartex::kernels::PeriodicGhosts ghosts = cartex::kernels::PeriodicGhosts::kAsComputed) {
    const cartex::kernels::CycleRegions steps(pattern.layout, s, pattern.update, cartex::kernels::TemporalTiling{tile_y});
    return timing(repeats, [&] { op.apply_steps(u, v, 1e-3, steps, 1, k, {}, nullptr, ghosts); });
  }
};

// --temporal: for each k, the cycle one step at a time, then every tile height halo.temporal_blocking:
// auto chooses among (kernels::tile_candidates, best of --repeats each) and the pick of auto's own
// search (core::OrderedSearch from default_tile_y, fed the fastest of two cycles per trial as a run is),
// in block cell-updates per second of all processes together (the deep halo's redundant ghost
// updates are part of the cost), with whether the pick is within 5% of the sweep's best tile.
void print_temporal(const Case& c, const cartex::core::Stencil& s, const cartex::core::GlobalGrid& g, const std::vector<int>& ks,
                    long tile_y, int repeats, double bound, bool decompose, int rank, int procs) {
  if (rank == 0) {
    fmt::print("\ntemporal blocking, {} {}D {}^{}: MLUP/s = k x block cells / time of one cycle (bound {:.1f})\n", c.name, c.dim, g.n[0],
               c.dim, bound);
    if (decompose) {
      const cartex::core::Decomposition d = cycle_decomposition(g, true, procs);
      const auto& dims = d.procs().dims;
      fmt::print("  --decompose: the {}^{} grid split as heat3d splits it, {}x{}x{} processes, each timing its own block's cycle\n",
                 g.n[0], c.dim, dims[0], dims[1], dims[2]);
    }
  }
  for (const int k : ks) {
    CycleBench bench(s, g, k, decompose, rank, procs);
    const double updates = (decompose ? 1.0 : static_cast<double>(procs)) * k * static_cast<double>(g.cells());
    const auto mlups = [&](double t) { return updates / t / 1e6; };
    const double t1 = bench.time(s, k, 0, repeats).best;
    if (rank == 0) fmt::print("k = {}: one step at a time {:.1f} MLUP/s ({:.2f}x the bound)\n", k, mlups(t1), mlups(t1) / bound);
    if (k < 2) continue;
    // The same candidates on every process, whatever its own rows (as heat3d's set-up agrees them).
    const cartex::kernels::TileBasis own = cartex::kernels::TileBasis::of(bench.pattern.layout);
    long agreed[2] = {own.rows, own.threads};
    cartex::core::check_mpi(MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    const cartex::kernels::TileBasis basis{agreed[0], static_cast<int>(agreed[1])};
    std::vector<long> tiles = tile_y > 0 ? std::vector<long>{tile_y} : cartex::kernels::tile_candidates(basis);
    std::string row;
    long best = tiles.front();
    Timing best_timing{std::numeric_limits<double>::max(), 0.0};
    for (const long t : tiles) {
      const Timing time = bench.time(s, k, t, repeats);
      row += fmt::format(" {}:{:.0f}", t, mlups(time.best));
      if (time.best < best_timing.best) best = t, best_timing = time;
    }
    const double best_t = best_timing.best;
    if (rank == 0)
      fmt::print("  tile sweep (rows:MLUP/s){}; best {} ({:.1f} MLUP/s, {:.2f}x the bound, {:.2f}x one step at a time; "
                 "median of its {} cycles {:.1f})\n",
                 row, fmt::format("{} rows", best), mlups(best_t), mlups(best_t) / bound, t1 / best_t, repeats,
                 mlups(best_timing.median));
    // heat3d's pass on this decomposition also writes the periodic ghosts (in place of the exchange's
    // self copy): the best tile again with them, so a run's update phase compares with its own work.
    if (bench.app_ghosts != cartex::kernels::PeriodicGhosts::kAsComputed) {
      const Timing with = bench.time(s, k, best, repeats, bench.app_ghosts);
      if (rank == 0)
        fmt::print("  with heat3d's periodic ghost writes ({}): {} rows {:.1f} MLUP/s = {:.3f} of the best tile; median of its {} "
                   "cycles {:.1f}\n",
                   bench.app_ghosts == cartex::kernels::PeriodicGhosts::kXY ? "x ghosts of each row, y ghost rows of each plane"
                                                                            : "x ghosts of each row",
                   best, mlups(with.best), best_t / with.best, repeats, mlups(with.median));
    }
    if (tile_y > 0) continue;
    // Auto's walk, each trial the fastest of two cycles like a run's (AutoStepper::kTrialCycles).
    const long start = cartex::kernels::default_tile_y(basis);
    cartex::core::OrderedSearch search(tiles, static_cast<std::size_t>(std::find(tiles.begin(), tiles.end(), start) - tiles.begin()));
    while (!search.done()) search.record(bench.time(s, k, search.next(), 2).best);
    std::vector<std::string> names;
    for (const long t : tiles) names.push_back(std::to_string(t));
    const long pick = search.best();
    const double pick_t = pick == best ? best_t : bench.time(s, k, pick, repeats).best;
    if (rank == 0)
      fmt::print("  auto's walk: {}; the pick {:.1f} MLUP/s = {:.3f} of the best tile: {}\n", search.describe(names, "ms/cycle"),
                 mlups(pick_t), best_t / pick_t, best_t / pick_t >= 0.95 ? "within 5%" : "NOT within 5%");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!cartex::entry::init_mpi(&argc, &argv, "kernelbench")) return cartex::core::kExitFailure;
  int code = 0, rank = 0, procs = 1;
  cartex::core::check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  cartex::core::check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &procs), "MPI_Comm_size");
  {
    cartex::entry::KokkosArgs kokkos(argc, argv);
    CLI::App app{"kernelbench: stencil update MLUP/s against STREAM bandwidth (all processes together)"};
    std::vector<long> sizes{64, 128, 256};
    std::vector<std::string> stencils{"7pt", "27pt", "star4", "star8", "5pt", "9pt"};
    int repeats = 10;
    long stream_n = 1L << 25;
    std::string csv;
    bool generic = false;
    std::vector<int> temporal;
    long tile_y = 0;
    bool decompose = false;
    app.add_option("--sizes", sizes, "cells per process: n^3 (3D: an n^3 cube; 2D: a square of the same cell count)")
        ->delimiter(',')
        ->check(CLI::PositiveNumber);
    app.add_option("--stencils", stencils,
                   "stencils: 7pt, 27pt, 5pt, 9pt, star2..star8 (3D; append /2d for 2D)")
        ->delimiter(',');
    app.add_option("--repeats", repeats, "timed repetitions per measurement (best is reported)")->check(CLI::PositiveNumber);
    app.add_option("--stream-size", stream_n, "STREAM array length in doubles (per process)")->check(CLI::PositiveNumber);
    app.add_flag("--generic", generic, "also time the generic kernel and print its slowdown");
    app.add_option("--temporal", temporal, "also time cycles of k steps one by one and temporally blocked (k list)")
        ->delimiter(',')
        ->check(CLI::Range(1, 16));
    app.add_option("--tile-y", tile_y, "rows per tile for --temporal (0: the sweep over auto's candidates and auto's pick)")
        ->check(CLI::NonNegativeNumber);
    app.add_flag("--decompose", decompose,
                 "--temporal: split the n^3 grid over the processes as heat3d does (each times its own block's cycle; "
                 "MLUP/s of the whole grid), instead of an n^3 block per process");
    app.add_option("--csv", csv, "also write the table as CSV to this file (rank 0)");
    app.add_flag("--kokkos-help")->description("print Kokkos' own command-line options, then exit");
    if (!kokkos.kokkos_help()) code = std::max(0, benchstats::parse_command_line(app, kokkos.argc(), kokkos.argv(), "kernelbench"));
    if (code == 0 && !kokkos.kokkos_help() && !app.get_option("--help")->count()) {
      // A failure (cartex::core::Error, comm/cart error) is one line and exit 1 on every rank.
      code = cartex::entry::run_main(MPI_COMM_WORLD, [] {}, [&] {
        const Stream st = measure_stream(stream_n, repeats, procs);
        const double bound = st.copy_gbs * 1e9 / 16.0 / 1e6;  // MLUP/s, all processes
        if (rank == 0) {
          fmt::print("kernelbench: Kokkos {} on {}, {} process{}, STREAM n = {} per process\n", KOKKOS_VERSION,
                     Kokkos::DefaultExecutionSpace::name(), procs, procs == 1 ? "" : "es (simultaneous, aggregate)",
                     stream_n);
          fmt::print("STREAM copy  {:8.2f} GB/s\nSTREAM scale {:8.2f} GB/s\nSTREAM triad {:8.2f} GB/s\n"
                     "bound (copy / 16 B per cell) {:.1f} MLUP/s\n\n",
                     st.copy_gbs, st.scale_gbs, st.triad_gbs, bound);
          fmt::print("{:>8} {:>3} {:>6} {:>16} {:>10} {:>9} {:>6}", "stencil", "dim", "n", "kernel", "MLUP/s", "GB/s eff",
                     "bound");
          if (generic) fmt::print(" {:>14} {:>8}", "generic MLUP/s", "slower");
          fmt::print("\n");
        }
        std::string table =
            "stencil,dim,edge,cells,processes,kernel,mlups,gbs_effective,fraction_of_bound,generic_mlups,generic_ratio,"
            "stream_copy_gbs,stream_scale_gbs,stream_triad_gbs,bound_mlups\n";
        for (const auto& spec : stencils) {
          const Case c = parse_case(spec);
          for (long n : sizes) {
            // 2D: a square with the cell count of the n^3 cube.
            const long edge = c.dim == 3 ? n : std::lround(std::pow(static_cast<double>(n), 1.5));
            cartex::core::GlobalGrid g;
            g.dim = c.dim;
            g.n = {edge, edge, c.dim == 3 ? edge : 1};
            cartex::core::Stencil s;
            try {
              s = make_stencil(c, g);
            } catch (const std::invalid_argument& e) {
              if (rank == 0) fmt::print(stderr, "kernelbench: --stencils {}: {}\n", spec, e.what());
              code = 2;
              break;
            }
            cartex::core::FieldLayout l;
            l.box.n = g.n;
            l.halo = s.reach();
            cartex::core::Field u("u", l), v("v", l);
            Kokkos::deep_copy(u.view, 1.0);
            Kokkos::deep_copy(v.view, 1.0);
            const double cells = static_cast<double>(edge) * edge * (c.dim == 3 ? edge : 1);
            const auto time = [&](cartex::kernels::StencilOperator::Kernel kind, std::string& name) {
              const cartex::kernels::StencilOperator op(s, l, kind);
              name = op.kernel_name();
              return best_time(repeats, [&] { op.apply(u, v, 1e-3); });
            };
            std::string kernel, generic_name;
            const double t = time(cartex::kernels::StencilOperator::Kernel::kAuto, kernel);
            const double tg = generic ? time(cartex::kernels::StencilOperator::Kernel::kGeneric, generic_name) : 0.0;
            const double mlups = procs * cells / t / 1e6;
            const double gbs = 16.0 * procs * cells / t / 1e9;
            const double gmlups = generic ? procs * cells / tg / 1e6 : 0.0;
            if (rank == 0) {
              fmt::print("{:>8} {:>3} {:>6} {:>16} {:>10.1f} {:>9.2f} {:>5.0f}%", c.name, c.dim, edge, kernel, mlups, gbs,
                         100 * mlups / bound);
              if (generic) fmt::print(" {:>14.1f} {:>7.2f}x", gmlups, tg / t);
              fmt::print("\n");
            }
            if (!temporal.empty()) print_temporal(c, s, g, temporal, tile_y, repeats, bound, decompose, rank, procs);
            // Kernel names contain commas ("star<3,4>"): quoted.
            table += fmt::format("{},{},{},{:.0f},{},\"{}\",{:.3f},{:.3f},{:.4f},{},{},{:.3f},{:.3f},{:.3f},{:.3f}\n", c.name,
                                 c.dim, edge, cells, procs, kernel, mlups, gbs, mlups / bound,
                                 generic ? fmt::format("{:.3f}", gmlups) : "", generic ? fmt::format("{:.4f}", tg / t) : "",
                                 st.copy_gbs, st.scale_gbs, st.triad_gbs, bound);
          }
          if (code != 0) break;
        }
        if (rank == 0 && !csv.empty() && code == 0) std::ofstream(csv) << table;
        return code;
      });
    }
  }
  return cartex::entry::finalize_mpi(code, "kernelbench");
}
