#pragma once
// Every MPI call of core, io, kernels, physics and the apps goes through check_mpi: a failed call is a
// cartex::core::Error naming the call, the rank and MPI's own text (the communicators the apps use
// return errors, MPI_ERRORS_RETURN, instead of ending the job inside MPI).
#include <mpi.h>

#include <string>

namespace cartex::core {

// Throws cartex::core::Error "CALL failed on rank R: MPI's error string" when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* call);

// MPI's text for the error code rc ("" when MPI cannot say), for messages.
std::string mpi_error_text(int rc);

// MPI_Comm_rank / MPI_Comm_size of `comm`, checked.
int comm_rank(MPI_Comm comm);
int comm_size(MPI_Comm comm);

// For destructors (MPI_Comm_free, MPI_Type_free, MPI_Request_free in RAII owners), where throwing would
// terminate: when rc is not MPI_SUCCESS, prints one line "cartex: CALL failed: MPI's error string" to
// stderr and returns.
void check_mpi_nothrow(int rc, const char* call) noexcept;

}  // namespace cartex::core
