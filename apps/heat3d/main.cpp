// heat3d: explicit heat equation on a 2D or 3D grid with MPI + Kokkos, driven by a YAML input.
//   heat3d INPUT.yaml [--set key.path=value ...] [--dry-run] [--restart CHECKPOINT]
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <optional>

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/core/version.hpp"
#include "heat_run.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    std::string input;
    std::vector<std::string> overrides;
    bool dry_run = false;
    std::string restart;
    std::string early_text;  // --help / --version text, printed by rank 0
    std::optional<cartex::heat::Setup> setup;

    CLI::App app{"cartex heat3d: explicit heat equation (2D or 3D) with MPI + Kokkos, configured by a YAML file"};
    app.add_option("input", input, "input YAML file (see docs/input.md)")->required();
    app.add_option("--set", overrides, "override one input key, e.g. --set grid.n=[64,64,64] (repeatable)")->allow_extra_args(false);
    app.add_flag("--dry-run", dry_run, "print the resolved configuration, process grid, boxes, halos and neighbors, then exit");
    app.add_option("--restart", restart, "continue from a checkpoint file written by output.checkpoint_every (docs/output.md)");
    app.set_version_flag("--version", fmt::format("heat3d {} (cartex, commit {})", cartex::kVersion, cartex::kGitCommit));

    code = cartex::run_collectively(
        MPI_COMM_WORLD,
        [&] {
          try {
            app.parse(argc, argv);
          } catch (const CLI::CallForHelp&) {
            early_text = app.help();
            return;
          } catch (const CLI::CallForVersion& e) {
            early_text = e.what();
            return;
          } catch (const CLI::ParseError& e) {
            throw cartex::InputError(fmt::format("heat3d: {} (see heat3d --help)", e.what()));
          }
          setup = cartex::heat::make_setup(input, overrides, MPI_COMM_WORLD);
          if (!restart.empty()) cartex::heat::load_restart(*setup, restart);
        },
        [&] {
          if (!setup) {
            if (rank == 0) fmt::print("{}\n", early_text);
            return 0;
          }
          if (dry_run) {
            cartex::heat::print_dry_run(*setup);
            return 0;
          }
          return cartex::heat::run(*setup);
        });
  }
  MPI_Finalize();
  return code;
}
