#pragma once
// The comm.* names of the input, checked against the layers that own them: core keeps no copy of the
// halo registry or of comm/ranks' allreduce algorithms.
#include "cartex/core/config.hpp"

namespace cartex::app {

// Throws InputError located at comm.backend when the backend is not in the halo registry, or is
// zero-copy while the default memory space is not host-accessible (`host_accessible_memory`, a
// parameter so a host-only build can test it), and at comm.allreduce when comm/ranks has no such
// algorithm.
void check_comm_choices(const core::Config& cfg, bool host_accessible_memory);

}  // namespace cartex::app
