#pragma once
// The summary's phase table: where the time loop's time went, per phase (core/phase_profile.hpp),
// over all ranks, like PETSc's -log_view (docs/profiling.md).
#include <mpi.h>

#include <string>

#include "cartex/core/phase_profile.hpp"

namespace cartex::app {

// The table's lines for this rank's `phases` and its step time `step_seconds` (the loop's wall time
// without output), each value as min / avg / max over the ranks of comm; the same text on every
// rank. Collective; throws cartex::core::Error if a reduction fails.
std::string phase_table(const core::PhaseTotals& phases, double step_seconds, MPI_Comm comm);

}  // namespace cartex::app
