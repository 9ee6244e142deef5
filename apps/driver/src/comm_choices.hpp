#pragma once
// The comm.* names of the input, checked against the layers that own them: core keeps no copy of the
// halo registry or of comm/ranks' allreduce algorithms.
#include "cartex/core/config.hpp"
#include "cartex/halo/backends.hpp"

namespace cartex::app {

// Throws InputError located at comm.backend when the backend is not in the halo registry, is
// unavailable in this build, or is zero-copy while the default memory space is not host-accessible
// (`host_accessible_memory`, a parameter so a host-only build can test it), and at comm.allreduce
// when comm/ranks has no such algorithm.
void check_comm_choices(const core::Config& cfg, bool host_accessible_memory);

// The comm.backend part of check_comm_choices for the registry row `row` of cfg.backend (nullptr:
// not in the registry); a parameter so a test can pass an unavailable row on an MPI that has them all.
void check_backend_choice(const core::Config& cfg, const halo::Backend* row, bool host_accessible_memory);

}  // namespace cartex::app
