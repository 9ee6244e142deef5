#pragma once
// The comm.* names of the input, checked against the layers that own them: core keeps no copy of the
// halo registry or of comm/ranks' allreduce algorithms.
#include "cartex/core/config.hpp"
#include "cartex/halo/backends.hpp"

namespace cartex::app {

// Throws InputError located at comm.backend when the backend is not in the halo registry, is
// unavailable in this build, or is zero-copy while `memory` (the decision of comm.gpu_aware_mpi,
// halo::mpi_memory; a parameter so a host-only build can test the device rows) refuses zero-copy
// backends, and at comm.allreduce when comm/ranks has no such algorithm.
void check_comm_choices(const core::Config& cfg, const halo::MpiMemory& memory);

// The comm.backend part of check_comm_choices for the registry row `row` of cfg.backend (nullptr:
// not in the registry); a parameter so a test can pass an unavailable row on an MPI that has them all.
void check_backend_choice(const core::Config& cfg, const halo::Backend* row, const halo::MpiMemory& memory);

}  // namespace cartex::app
