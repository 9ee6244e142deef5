// The benchmarked problem: a stencil and a global grid of block^dim cells per rank.
#pragma once

#include <array>
#include <string>

#include "cartex/core/decomposition.hpp"
#include "cartex/core/stencil.hpp"

namespace halobench {

// One (stencil, block size) configuration on the run's ranks.
struct Problem {
  cartex::core::Stencil stencil;
  cartex::core::Decomposition decomposition;
  long block = 0;
};

// Builds the problem; throws std::invalid_argument for an unknown stencil or a bad process grid.
// `name` is a builtin stencil (its own dimension) or star:R / box:R in `dim` dimensions.
Problem make_problem(const std::string& name, int dim, long block, bool periodic, std::array<int, 3> dims, int nranks);

// "2x2x2": the process grid of a problem.
std::string grid_name(const cartex::core::Decomposition& d);

}  // namespace halobench
