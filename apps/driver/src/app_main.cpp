// The command line and collective error handling of every cartex app (driver.hpp).
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <optional>

#include "cartex/app/driver.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/core/version.hpp"
#include "driver.hpp"

namespace cartex::app {

int run_app(const char* name, Equation equation, int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  std::string input;
  std::vector<std::string> overrides;
  bool dry_run = false;
  std::string restart;
  std::string early_text;  // --help / --version text, printed by rank 0
  std::optional<Setup> setup;

  const char* what = equation == Equation::kHeat ? "explicit heat equation" : "wave equation (leapfrog)";
  CLI::App app{fmt::format("cartex {}: {} (2D or 3D) with MPI + Kokkos, configured by a YAML file", name, what)};
  app.add_option("input", input, "input YAML file (see docs/input.md)")->required();
  app.add_option("--set", overrides, "override one input key, e.g. --set grid.n=[64,64,64] (repeatable)")->allow_extra_args(false);
  app.add_flag("--dry-run", dry_run, "print the resolved configuration, process grid, boxes, halos and neighbors, then exit");
  app.add_option("--restart", restart, "continue from a checkpoint file written by output.checkpoint_every (docs/output.md)");
  app.set_version_flag("--version", fmt::format("{} {} (cartex, commit {})", name, kVersion, kGitCommit));

  return run_collectively(
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
          throw InputError(fmt::format("{}: {} (see {} --help)", name, e.what(), name));
        }
        setup = make_setup(name, equation, input, overrides, MPI_COMM_WORLD);
        if (!restart.empty()) load_restart(*setup, restart);
      },
      [&] {
        if (!setup) {
          if (rank == 0) fmt::print("{}\n", early_text);
          return 0;
        }
        if (dry_run) {
          print_dry_run(*setup);
          return 0;
        }
        return run(*setup);
      });
}

int app_main(const char* name, Equation equation, int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    code = run_app(name, equation, argc, argv);
  }
  MPI_Finalize();
  return code;
}

}  // namespace cartex::app
