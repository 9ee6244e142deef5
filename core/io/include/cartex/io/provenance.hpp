#pragma once
// Provenance stored on every HDF5 file a run writes: enough to tell how the numbers were made.
#include <mpi.h>

#include <array>
#include <string>

#include "cartex/core/config.hpp"
#include "cartex/core/decomposition.hpp"

namespace cartex::io {

// Who wrote a file: resolved input, build, process grid, backend, start time, restart source.
struct Provenance {
  std::string input_yaml;    // the full resolved input (defaults filled in) as YAML text
  std::string version;       // cartex version
  std::string git_commit;    // git commit of the build
  std::string backend;       // halo exchange backend
  std::string start_time;    // run start, ISO 8601 UTC, the same on every rank
  std::string restart_from;  // checkpoint the run continued from, empty for a fresh run
  std::array<long, 3> process_dims{1, 1, 1};
  long ranks = 1;
};

// The provenance of this run; the start time is rank 0's clock now (collective over `comm`).
Provenance make_provenance(const core::Config& cfg, const core::ProcessGrid& procs, const std::string& restart_from, MPI_Comm comm);

}  // namespace cartex::io
