#pragma once
// Dirichlet boundaries: ghost cells outside a non-periodic global face hold that face's fixed value.
#include <array>

#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"

namespace cartex::kernels {

// Sets every halo cell of `f` that lies outside the global domain in a non-periodic dimension to the
// Dirichlet value of that face (the first such dimension in x, y, z order decides for edge and corner
// cells). Halo cells inside the domain are left for the halo exchange. Call once per field: the
// exchange never writes these cells.
void fill_dirichlet(core::Field& f, const core::GlobalGrid& grid, const std::array<std::array<double, 2>, 3>& value);

}  // namespace cartex::kernels
