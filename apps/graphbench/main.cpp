// graphbench: --latency (comm/graph vs MPI_Neighbor_allgather), --traffic (inter-node tables under
// simulated layouts, no communication), --ring (ring / ring_renamed / MPI_Allreduce times here).
#include <CLI/CLI.hpp>
#include <mpi.h>

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/entry/mpi_session.hpp"
#include "bench.hpp"
#include "benchstats/command_line.hpp"
#include "cartex/entry/run_main.hpp"

int main(int argc, char** argv) {
  if (!cartex::entry::init_mpi(&argc, &argv, "graphbench")) return cartex::core::kExitFailure;
  graphbench::Options o;
  bool latency = false, traffic = false, ring = false;
  CLI::App app("graphbench: message combining on general graphs and rank renaming");
  app.add_flag("--latency", latency, "neighbor allgather latency on random and Moore graphs");
  app.add_flag("--traffic", traffic, "inter-node messages and bytes: ring vs ring_renamed, halo with/without reordering");
  app.add_flag("--ring", ring, "time of mpi / ring / ring_renamed allreduce on this machine");
  app.add_option("--density", o.densities, "Erdos-Renyi edge densities")->delimiter(',');
  app.add_option("--moore", o.moore, "Moore neighborhoods D:R")->delimiter(',');
  app.add_option("--sizes", o.sizes, "block sizes in bytes")->delimiter(',');
  app.add_option("--theta", o.theta, "friendship threshold")->delimiter(',');
  app.add_option("--seed", o.seed, "graph and cell-order seed")->delimiter(',');
  app.add_option("--warmup", o.warmup, "warm-up runs per cell")->delimiter(',');
  app.add_option("--reps", o.reps, "repetitions per cell and series")->delimiter(',');
  app.add_option("--series", o.series, "series (random cell order each)")->delimiter(',');
  app.add_option("--tukey", o.tukey, "Tukey fence factor")->delimiter(',');
  app.add_option("--procs", o.procs, "process counts of the ring table")->delimiter(',');
  app.add_option("--ppn", o.ppn, "ranks per node of the simulated layouts")->delimiter(',');
  app.add_option("--count", o.count, "doubles per ring allreduce in the traffic table")->delimiter(',');
  app.add_option("--grid", o.grid, "extra process grid (3 sizes) of the halo table")->delimiter(',');
  app.add_option("--face-bytes", o.face_bytes, "bytes per halo face message")->delimiter(',');
  app.add_option("--ring-counts", o.ring_counts, "doubles per allreduce in --ring")->delimiter(',');
  if (const int rc = benchstats::parse_command_line(app, argc, argv, "graphbench"); rc >= 0) {
    return cartex::entry::finalize_mpi(rc, "graphbench");
  }
  if (!latency && !traffic && !ring) latency = true;
  const int rc = cartex::entry::run_main(MPI_COMM_WORLD, [&] {
#ifdef CARTEX_NO_DIST_GRAPH
    // Without dist graphs (configure-time check, cmake/CartexMpiFeatures.cmake) there is nothing to compare.
    if (latency) throw cartex::core::InputError("graphbench: --latency is unavailable in this build: " CARTEX_NO_DIST_GRAPH);
#endif
  }, [&] {
    if (latency) graphbench::run_latency(o);
    if (traffic) graphbench::run_traffic(o);
    if (ring) graphbench::run_ring_overhead(o);
    return 0;
  });
  return cartex::entry::finalize_mpi(rc, "graphbench");
}
