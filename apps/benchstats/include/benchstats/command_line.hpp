#pragma once
// How a benchmark reads its command line, the way heat3d does: --help prints once (rank 0) and every
// rank exits 0; a bad option is one line "NAME: what (see NAME --help)" on rank 0 and exit 2 on every
// rank. Every rank parses the same arguments, so all agree without communicating.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <cstdio>

#include "cartex/core/mpi_check.hpp"

namespace benchstats {

// -1: run the benchmark; else the exit code for every rank.
inline int parse_command_line(CLI::App& app, int argc, char** argv, const char* name) {
  int rank = 0;
  cartex::core::check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  try {
    app.parse(argc, argv);
    return -1;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      if (rank == 0) app.exit(e);
      return 0;
    }
    if (rank == 0) fmt::print(stderr, "{}: {} (see {} --help)\n", name, e.what(), name);
    return 2;
  }
}

}  // namespace benchstats
