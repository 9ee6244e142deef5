#pragma once
// Shared by the halo tests: one exchange case checked cell by cell. After exchanging (twice, on one
// plan) every cell of the exact halo (B + S^k minus B) holds its owner's value, the block is
// unchanged, and no other cell holds a wrong value (only cart_forwarding may leave correct copies in
// bounding-box cells outside the exact halo, which it uses to forward, and p2p in the whole planes of
// a slab decomposition, staging/whole_planes.hpp). The field encodes the global
// cell index, so a wrong source, a shifted cell or a swapped direction shows up as a wrong number;
// the first wrong cells are reported as gtest failures.
#include <string>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "halo_test_support.hpp"

namespace cartex::test {

// Exchanges case `c` with `backend` (built for `gpu_aware_mpi`) in a view with `extra` more halo cells
// on each side of a used dimension than the geometry's; returns the number of wrong cells.
long wrong_cells_after_exchange(const Case& c, const std::string& backend, int extra,
                                core::GpuAwareMpiInput gpu_aware_mpi = core::GpuAwareMpiInput::kAuto);

// The cells that start as -1 (halo) or encode(global cell) + shift (block) in every field of the halo
// tests: fills h for layout L of case c.
void fill_encoded(const Case& c, const core::FieldLayout& L, const core::FieldView::HostMirror& h, double shift = 0.0);

// The check of wrong_cells_after_exchange on an exchanged field's host copy h (layout L, filled by
// fill_encoded with `shift`): the number of wrong cells, the first ones reported as gtest failures
// naming `what`.
long wrong_cells(const Case& c, const core::FieldLayout& L, const core::FieldView::HostMirror& h, const std::string& backend,
                 const std::string& what, double shift = 0.0);

}  // namespace cartex::test
