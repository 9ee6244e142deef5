#pragma once
// Shared by the halo tests: one exchange case checked cell by cell. After exchanging (twice, on one
// plan) every cell of the exact halo (B + S^k minus B) holds its owner's value, the block is
// unchanged, and no other cell holds a wrong value (only cart_forwarding may leave correct copies in
// bounding-box cells outside the exact halo, which it uses to forward). The field encodes the global
// cell index, so a wrong source, a shifted cell or a swapped direction shows up as a wrong number;
// the first wrong cells are reported as gtest failures.
#include <string>

#include "cartex/core/config.hpp"
#include "halo_test_support.hpp"

namespace cartex::test {

// Exchanges case `c` with `backend` (built for `gpu_aware_mpi`) in a view with `extra` more halo cells
// on each side of a used dimension than the geometry's; returns the number of wrong cells.
long wrong_cells_after_exchange(const Case& c, const std::string& backend, int extra,
                                core::GpuAwareMpiInput gpu_aware_mpi = core::GpuAwareMpiInput::kAuto);

}  // namespace cartex::test
