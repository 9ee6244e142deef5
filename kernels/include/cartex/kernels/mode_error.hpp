#pragma once
// The error of a field against an exact solution given as a ModeSum (mode_sum.hpp): the check of an
// equation whose exact solution is not a real multiple of the initial sine mode (advection moves
// it). Collective, through the caller's Allreduce like the other diagnostics (diagnostics.hpp).
#include <mpi.h>

#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/kernels/diagnostics.hpp"
#include "cartex/kernels/mode_sum.hpp"

namespace cartex::kernels {

// max |f - exact| over the interior of every rank, divided by max |exact| there (or not divided
// when the exact solution is 0 everywhere); cell positions as grid.hpp states them.
double relative_error_vs_modes(const core::Field& f, const core::GlobalGrid& grid, const ModeSum& exact, MPI_Comm comm,
                               const Allreduce& allreduce = mpi_allreduce);

}  // namespace cartex::kernels
