#pragma once
// Internal: every MPI call of comm/ranks goes through check_mpi, so a failed call is the one cartex
// error type, cartex::core::Error, like in the other layers.
#include <mpi.h>

#include "cartex/core/mpi_check.hpp"

namespace cartex::ranks {

// Throws cartex::core::Error "CALL failed on rank R: MPI's error string" when rc is not MPI_SUCCESS.
using core::check_mpi;
// In destructors, which must not throw: one line "cartex: CALL failed: ..." to stderr.
using core::check_mpi_nothrow;

}  // namespace cartex::ranks
