#include "cartex/io/provenance.hpp"

#include <cstring>
#include <ctime>

#include "cartex/core/mpi_check.hpp"
#include "cartex/core/version.hpp"

namespace cartex::io {

Provenance make_provenance(const core::Config& cfg, const core::ProcessGrid& procs, const std::string& restart_from, MPI_Comm comm) {
  Provenance p;
  p.input_yaml = cfg.resolved_yaml;
  p.version = core::kVersion;
  p.git_commit = core::kGitCommit;
  p.backend = cfg.backend;
  p.restart_from = restart_from;
  for (int d = 0; d < 3; ++d) p.process_dims[d] = procs.dims[d];
  p.ranks = procs.size();
  // Collective attribute writes need identical values on every rank, so rank 0's clock decides.
  char stamp[32] = {};
  if (core::comm_rank(comm) == 0) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
  }
  core::check_mpi(MPI_Bcast(stamp, sizeof stamp, MPI_CHAR, 0, comm), "MPI_Bcast");
  p.start_time = stamp;
  return p;
}

}  // namespace cartex::io
