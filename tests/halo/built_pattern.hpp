#pragma once
// Shared by the halo tests: a case's decomposition over MPI_COMM_WORLD, its halo geometry and this
// rank's pattern, and the random stencil part of a case.
#include <array>
#include <random>

#include "cartex/core/decomposition.hpp"
#include "cartex/halo/geometry.hpp"
#include "cartex/halo/pattern.hpp"
#include "halo_test_support.hpp"

namespace cartex::test {

struct BuiltPattern {
  core::Decomposition dec;
  halo::HaloGeometry geo;
  halo::HaloPattern pattern;
};

// `procs`: processes per dimension, 0 where MPI_Dims_create chooses; `extra`: more view halo cells
// on each side of a used dimension than the geometry's.
BuiltPattern build_pattern(const Case& c, std::array<int, 3> procs = {0, 0, 0}, int extra = 0);

// Sets c's dim (2 or 3), shape (star, box, upwind, down, skew), radius (1-3, box 1-2) and k (1-3, 1-2
// above radius 2); the grid is the caller's.
void pick_random_stencil(Case& c, std::mt19937& rng);

}  // namespace cartex::test
