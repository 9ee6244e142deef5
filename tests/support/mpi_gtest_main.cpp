// GoogleTest main for tests run under mpiexec: every rank runs every test; rank 0 prints the usual
// report, other ranks print only their failures (prefixed with the rank), and the exit code is
// non-zero on every rank if any rank failed. With CARTEX_TEST_KOKKOS defined it also initialises
// Kokkos around the tests.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include "cartex/core/leak_check.h"

#ifdef CARTEX_TEST_KOKKOS
#include <Kokkos_Core.hpp>
#endif

namespace {

// Prints failed assertions of a non-zero rank, so a failure on rank 3 is not silent.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed()) {
      std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
    }
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  {
    cartex::core::UntrackedAllocations mpi_own;
    MPI_Init(&argc, &argv);
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  int local_failed = 0;
  {
#ifdef CARTEX_TEST_KOKKOS
    Kokkos::ScopeGuard kokkos(argc, argv);
#endif
    local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  }
  int any_failed = 0;
  MPI_Allreduce(&local_failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  cartex::core::check_leaks_now();
  MPI_Finalize();
  return any_failed;
}
