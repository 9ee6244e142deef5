// The command line and collective error handling of every cartex app (driver.hpp).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <optional>

#include "cartex/app/driver.hpp"
#include "cartex/core/agreement.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/input_keys.hpp"
#include "cartex/core/mpi_main.hpp"
#include "cartex/entry/kokkos_args.hpp"
#include "cartex/entry/run_main.hpp"
#include "cartex/core/version.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/entry/mpi_session.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/io/coefficient_file.hpp"
#include "driver.hpp"

namespace cartex::app {

int run_app(const char* name, const physics::Equation& equation, int argc, char** argv) {
  const int rank = core::comm_rank(MPI_COMM_WORLD);

  core::InputSources in;
  bool dry_run = false, help_input = false, list_backends = false;
  std::string restart;
  std::string early_text;  // --help / --version / --help-input / --list-backends text, printed by rank 0
  std::optional<Setup> setup;

  CLI::App app{fmt::format("cartex {}: {} (2D or 3D) with MPI + Kokkos, configured by YAML input files", name, equation.title)};
  app.add_option("input", in.files,
                 "input YAML file(s), layered left to right: a later file overrides keys of the earlier ones (docs/input.md)");
  app.add_option("--set", in.sets, "set one input key, e.g. --set grid.n=[64,64,64]; --set KEY=null removes it (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--unset", in.unsets, "remove one input key, e.g. --unset physics.cfl (repeatable; applied before every --set)")
      ->allow_extra_args(false);
  app.add_flag("--dry-run", dry_run, "print the resolved configuration, process grid, boxes, halos and neighbors, then exit");
  app.add_option("--restart", restart,
                 "continue from checkpoint FILE, or from the newest one in output.dir with --restart latest; without an input "
                 "file the checkpoint's own input is used (docs/output.md)");
  app.add_flag("--help-input", help_input, "print every input key with its type, default and meaning, then exit");
  app.add_flag("--list-backends", list_backends,
               "print the halo backends comm.backend accepts (the halo registry: memory, overlap, description), then exit");
  app.add_flag("--kokkos-help")->description("print Kokkos' own command-line options, then exit");
  app.set_version_flag("--version", fmt::format("{} {} (cartex, commit {})", name, core::kVersion, core::kGitCommit));

  // Parses the command line (early_text: what --help and the like print instead of a run), resolves
  // --restart's checkpoint and reads the input files (in.texts). On this rank alone.
  const auto read_command_line = [&](std::string& checkpoint) {
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      early_text = app.help();
      return;
    } catch (const CLI::CallForVersion& e) {
      early_text = e.what();
      return;
    } catch (const CLI::ParseError& e) {
      throw core::InputError(fmt::format("{}: {} (see {} --help)", name, e.what(), name));
    }
    if (help_input) {
      early_text = fmt::format("# every input key of {}: type, default, meaning (docs/input.md)\n{}", name,
                               core::input_keys_help(physics::loader_input(equation)));
      return;
    }
    if (list_backends) {
      early_text = halo::backends_table();
      return;
    }
    if (in.files.empty() && restart.empty())
      throw core::InputError(fmt::format("{}: an input file is required (or --restart FILE) (see {} --help)", name, name));
    if (!restart.empty()) checkpoint = resolve_restart(restart, in, equation);
    core::read_input_files(in);
  };

  return entry::run_main(
      MPI_COMM_WORLD,
      [&] {
        std::string checkpoint;
        // The command line, the checkpoint and the input files are read on every rank, then agreed on:
        // loading the input and the set-up after it meet collectives that a failed rank would not.
        core::agree(MPI_COMM_WORLD, [&] { read_command_line(checkpoint); });
        if (!early_text.empty()) return;
        for (const std::string& file : in.files) core::agree_same_bytes(MPI_COMM_WORLD, file, in.texts.at(file));
        setup = make_setup(name, equation, in, MPI_COMM_WORLD);
        setup->program = argv[0];
        if (!checkpoint.empty()) load_restart(*setup, checkpoint);
        // A dry run creates nothing: output.dir was checked without writing when the input was read.
        if (!dry_run) prepare_output(*setup, MPI_COMM_WORLD);
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

int app_main(const char* name, const physics::Equation& equation, int argc, char** argv) {
  if (!entry::init_mpi(&argc, &argv, name)) return core::kExitFailure;
  core::set_coefficient_file_scan(io::scan_coefficient_file);  // physics.alpha: {hdf5: ...} (core reads no HDF5)
  int code = 0;
  {
    entry::KokkosArgs kokkos(argc, argv);  // --help for cartex, --kokkos-help for Kokkos
    if (!kokkos.kokkos_help()) code = run_app(name, equation, kokkos.argc(), kokkos.argv());
  }
  return entry::finalize_mpi(code, name);
}

}  // namespace cartex::app
