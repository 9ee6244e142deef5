// halobench: every halo exchange backend side by side on one stencil and block size per rank, with
// the cartbench method (warm-up, barrier-synchronised series in random order, median, 95% CI).
//
//   mpiexec -n 8 build/bin/halobench --stencil 27pt,7pt --block 4,8,16 --k 1 --csv run.csv
//   mpiexec -n 2 build/bin/halobench --block 8,128 --fields 1,2,4,8    # N fields together vs one by one
//
// Every backend's exchange is checked once on a global-index field before timing; a wrong backend
// is reported as FAILED, gets no time, and the run exits with status 1.
#include <fmt/core.h>
#include <mpi.h>

#include "bench.hpp"
#include "cartex/entry/kokkos_args.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/entry/mpi_session.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/entry/run_main.hpp"
#include "cartex/halo/geometry.hpp"
#include "options.hpp"
#include "report.hpp"

int main(int argc, char** argv) {
  if (!cartex::entry::init_mpi(&argc, &argv, "halobench")) return cartex::core::kExitFailure;
  int rc = 0;
  {
    cartex::entry::KokkosArgs kokkos(argc, argv);
    halobench::Options o;
    int procs = 1, rank = 0;
    cartex::core::check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &procs), "MPI_Comm_size");
    cartex::core::check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    rc = kokkos.kokkos_help() ? 0 : halobench::parse_options(kokkos.argc(), kokkos.argv(), o);
    if (rc < 0 && o.list_backends) {
      if (rank == 0) fmt::print("{}", cartex::halo::backends_table());
      rc = 0;
    }
    if (rc < 0) {
      std::vector<halobench::Problem> problems;
      rc = cartex::entry::run_main(
          MPI_COMM_WORLD,
          [&] {
            for (const auto& s : o.stencils)
              for (long b : o.blocks) {
                problems.push_back(halobench::make_problem(s, o.dim, b, !o.mesh, o.dims, procs));
                // Throws here, on every rank alike, when the halo is deeper than the grid allows.
                cartex::halo::HaloGeometry(problems.back().decomposition, problems.back().stencil, o.k);
              }
          },
          [&] {
            const bool fields_mode = !o.fields.empty();
            benchstats::CsvWriter csv(rank == 0 ? o.csv : std::string(),
                                      fields_mode ? halobench::kFieldsCsvHeader : halobench::kCsvHeader);
            if (rank == 0) {
              fmt::print("halobench: mpi buffers: {}\n", cartex::halo::mpi_memory(o.gpu_aware_mpi).reason);
              for (const auto& s : halobench::skipped_backends(o)) fmt::print("halobench: skipping {}\n", s);
            }
            int status = cartex::core::kExitOk;
            for (const auto& p : problems) {
              if (fields_mode) {
                const auto results = halobench::bench_fields(p, o, MPI_COMM_WORLD);
                if (rank == 0) {
                  halobench::print_fields_results(p, o, procs, results);
                  halobench::write_fields_results(csv, p, o, procs, results);
                }
                for (const auto& r : results)
                  if (r.wrong_cells > 0) status = cartex::core::kExitFailure;
                continue;
              }
              const auto results = halobench::bench_problem(p, o, MPI_COMM_WORLD);
              if (rank == 0) {
                halobench::print_results(p, o, procs, results);
                halobench::write_results(csv, p, o, procs, results);
              }
              for (const auto& r : results)
                if (r.wrong_cells > 0) status = cartex::core::kExitFailure;
            }
            return status;
          });
    }
  }
  return cartex::entry::finalize_mpi(rc, "halobench");
}
