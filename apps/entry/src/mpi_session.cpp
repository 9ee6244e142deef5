#include "cartex/entry/mpi_session.hpp"

#include <mpi.h>

#include <cstdio>

#include "cartex/core/leak_check.h"

namespace cartex::entry {
namespace {

// True when rc is MPI_SUCCESS; otherwise prints "PROGRAM: CALL failed: MPI's text" and returns false.
bool succeeded(int rc, const char* call, const char* program) {
  if (rc == MPI_SUCCESS) return true;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;  // best effort: only for the message
  std::fprintf(stderr, "%s: %s failed: %.*s\n", program, call, len, text);
  return false;
}

}  // namespace

bool init_mpi(int* argc, char*** argv, const char* program) {
  int rc = MPI_SUCCESS;
  {
    core::UntrackedAllocations mpi_own;
    rc = MPI_Init(argc, argv);
  }
  if (!succeeded(rc, "MPI_Init", program)) return false;
  // Errors return instead of ending the job inside MPI: a failing call returns its code, which
  // check_mpi turns into a cartex::core::Error naming the call (reported by run_main on every rank).
  // Communicators made from MPI_COMM_WORLD (duplicates, splits, topologies) inherit the handler.
  if (succeeded(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", program)) return true;
  succeeded(MPI_Finalize(), "MPI_Finalize", program);
  return false;
}

int finalize_mpi(int code, const char* program) {
  // Out before the job can end: once one rank has exited non-zero the launcher may kill the others
  // without grace (Open MPI's odls_base_sigkill_timeout, Slurm's KillWait), buffered lines lost.
  std::fflush(nullptr);
  core::check_leaks_now();
  if (succeeded(MPI_Finalize(), "MPI_Finalize", program)) return code;
  return code != 0 ? code : 1;
}

}  // namespace cartex::entry
