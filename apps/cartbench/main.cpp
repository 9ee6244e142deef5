// cartbench: benchmark of the Cartesian collectives of comm/cart (see docs/cart.md).
//   cartbench --metrics --d 3 --n 5 --f -1           t, C and V of the schedules
//   mpiexec -n 8 cartbench --d 3 --n 5 --m 1,10      collectives side by side, CSV with --csv
//   mpiexec -n 8 cartbench --setup --moore 3 --d 2   neighborhood creation times
//   cartbench --model alpha=1e-6,beta=1e-10 --procs 4096 --d 4 --n 3   model predictions
//   mpiexec -n 8 cartbench --pingpong                alpha and beta as auto measures them
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/entry/mpi_session.hpp"
#include "cartex/cart/model.hpp"
#include "benchstats/command_line.hpp"
#include "cartex/entry/run_main.hpp"

#include "config.hpp"

int main(int argc, char** argv) {
  if (!cartex::entry::init_mpi(&argc, &argv, "cartbench")) return cartex::core::kExitFailure;
  cartbench::Config c;
  CLI::App app{"cartbench: Cartesian collective communication benchmark"};
  bool metrics = false, setup = false, pingpong = false;
  app.add_flag("--metrics", metrics, "print t, C and V of the schedules and exit");
  app.add_flag("--setup", setup, "time neighborhood creation instead of the collectives");
  app.add_flag("--pingpong", pingpong, "print the alpha and beta that auto measures, for --model");
  app.add_option("--model", c.model, "predict times: alpha=S,beta=S/B[,alpha_inter=S,beta_inter=S/B,ppn=N]");
  app.add_option("--procs", c.procs, "process count for --model");
  app.add_option("--d", c.d, "dimensions")->check(CLI::Range(1, 8));
  app.add_option("--n", c.n, "neighbors per dimension (offsets f .. f+n-1)");
  app.add_option("--f", c.f, "first offset per dimension");
  app.add_option("--moore", c.moore, "Moore neighborhood of this radius instead of (n, f)");
  app.add_option("--vonneumann", c.von_neumann, "von Neumann neighborhood of this radius instead of (n, f)");
  app.add_option("--dims", c.dims, "process grid (default MPI_Dims_create)")->delimiter(',');
  app.add_flag("--mesh", c.mesh, "non-periodic in every dimension (default torus)");
  app.add_option("--m", c.m, "block sizes in ints")->delimiter(',');
  app.add_option("--op", c.ops, "alltoall, allgather, alltoallv")->delimiter(',');
  app.add_option("--impl", c.impls,
                 "mpi_neighbor, mpi_ineighbor, direct, combining, combining_packed, auto, and any of the last four "
                 "with _init (a plan); graph_combining(_init): comm/graph's message combining on the same dist graph; "
                 "mpi_alltoallw: MPI_Alltoallw on MPI_COMM_WORLD with the neighbors' blocks (default: all but "
                 "mpi_alltoallw that this build has)")
      ->delimiter(',');
  app.add_flag("--check", c.check,
               "after the timing, run every cell once on the oracle's data and compare every received block at "
               "every rank with the oracle (exit 1 when one differs)");
  app.add_option("--warmup", c.warmup, "warm-up runs per cell");
  app.add_option("--reps", c.reps,
                 "repetitions per cell and series; 0 with --check: the checked run is the one sample (for deterministic "
                 "simulations, docs/scale.md)");
  app.add_option("--series", c.series, "series, each visiting the cells in a new random order");
  app.add_option("--tukey", c.tukey, "Tukey outlier factor k (EuroMPI'15 uses 3.0)");
  app.add_option("--seed", c.seed, "seed of the series orders");
  app.add_option("--csv", c.csv, "CSV output file (rank 0)");
  app.add_option("--label", c.label, "label copied into the CSV");
  if (const int rc = benchstats::parse_command_line(app, argc, argv, "cartbench"); rc >= 0) {
    return cartex::entry::finalize_mpi(rc, "cartbench");
  }
  int rank = 0;
  cartex::core::check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  const int rc = cartex::entry::run_main(MPI_COMM_WORLD, [&] {
    if (c.reps == 0 && !c.check) throw cartex::core::InputError("cartbench: --reps 0 needs --check (its run is the sample)");
    for (const std::string& impl : c.impls) {
      const std::string why = cartbench::unavailable_reason(impl);
      if (!why.empty()) throw cartex::core::InputError("cartbench: --impl " + why);
    }
  }, [&] {
    if (metrics) {
      if (rank == 0) cartbench::print_metrics(c);
    } else if (pingpong) {
      const cartex::cart::LinearModel m = cartex::cart::measure_linear_model(MPI_COMM_WORLD);
      if (rank == 0) std::printf("alpha=%.3g,beta=%.3g\n", m.alpha, m.beta);
    } else if (!c.model.empty()) {
      cartbench::run_model(c);
    } else if (setup) {
      cartbench::run_setup(c);
    } else {
      cartbench::run_collectives(c);
    }
    return 0;
  });
  return cartex::entry::finalize_mpi(rc, "cartbench");
}
