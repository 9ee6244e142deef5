#pragma once
// MPI_COMM_WORLD as the C++ tests see it (every rank runs every test, mpi_gtest_main.cpp). Results
// are not checked: MPI_COMM_WORLD keeps MPI's default handler, which aborts the job on an error.
#include <mpi.h>

namespace cartex::test {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

inline void world_barrier() { MPI_Barrier(MPI_COMM_WORLD); }

// The sum of x over all ranks.
inline int world_sum(int x) {
  int sum = 0;
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

}  // namespace cartex::test
