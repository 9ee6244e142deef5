#pragma once
// Internal: every MPI call of comm/halo goes through check_mpi.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "cartex/core/mpi_check.hpp"

namespace cartex::halo {

// Throws cartex::core::Error "CALL failed on rank R: MPI's error string" when rc is not MPI_SUCCESS.
using core::check_mpi;
// In destructors, which must not throw: core's one-line report to stderr.
using core::check_mpi_nothrow;

// MPI_Testall of requests[0 .. n) (checked; true for n = 0): true when all are complete.
bool test_all(std::vector<MPI_Request>& requests, size_t n);
// MPI_Waitall of requests[0 .. n) (checked).
void wait_all(std::vector<MPI_Request>& requests, size_t n);

}  // namespace cartex::halo
