#pragma once
// A varying coefficient stored like a field of the same layout as u, halo included: the flux-form
// update (flux_diffusion.hpp) reads it at the neighbours of every cell it updates, also at the
// ghost cells a deep-halo step updates, so every view cell holds its value and it is never exchanged
// (core/coefficient.hpp says which global cell a halo cell takes its value from).
#include <vector>

#include "cartex/core/coefficient.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"

namespace cartex::kernels {

// The global cell (inside the grid) whose value the view cell (i, j, k) of `layout` holds.
std::array<long, 3> coefficient_source_cell(const core::GlobalGrid& grid, const core::FieldLayout& layout, long i, long j, long k);

// `c` (an analytic form: number, layers or gaussian) on every view cell of `layout`.
core::Field make_coefficient_field(const core::CoefficientInput& c, const core::GlobalGrid& grid, const core::FieldLayout& layout);

// A field of `layout` holding `values`, one per view cell in view order (k, then j, then i fastest).
core::Field coefficient_field_from_values(const std::vector<double>& values, const core::FieldLayout& layout);

// The smallest (NaN if any value is NaN) and largest value of the interior of `f` on this rank
// ({+inf, -inf} when it is empty).
std::array<double, 2> interior_min_max(const core::Field& f);

}  // namespace cartex::kernels
