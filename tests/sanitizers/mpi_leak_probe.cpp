// An MPI program with the mains' leak check (cartex/core/leak_check.h): MPI_Init's own blocks
// untracked, the check just before MPI_Finalize. With "leak", one 55-byte block is lost between.
// Usage: mpiexec -n N mpi_leak_probe [leak]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cartex/core/leak_check.h"

namespace {

void* volatile lost;

[[gnu::noinline]] void lose_a_block() {
  lost = std::malloc(55);
  lost = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  {
    cartex::core::UntrackedAllocations mpi_own;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 2;
  }
  if (argc > 1 && std::strcmp(argv[1], "leak") == 0) lose_a_block();
  int rank = 0;
  if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) return 2;
  std::printf("mpi_leak_probe: rank %d\n", rank);
  cartex::core::check_leaks_now();
  return MPI_Finalize() == MPI_SUCCESS ? 0 : 2;
}
