// Every plan of the registry refuses a second start before finish and a finish without start (the
// second start would post receives into buffers MPI still owns), and comm/halo's MPI error check
// names the call, the rank and MPI's error string.
#include <gtest/gtest.h>
#include <mpi.h>

#include "cartex/core/error.hpp"
#include "cartex/halo/backends.hpp"
#include "halo_test_support.hpp"
#include "mpi_check.hpp"

namespace cartex {
namespace {

using namespace halo;

TEST(HaloStartFinish, EveryBackendRefusesASecondStartAndAFinishWithoutStart) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  GlobalGrid g;
  g.dim = 3;
  g.n = {6, 6, 6};
  const Decomposition dec(g, ProcessGrid::create(g, {0, 0, 0}, size));
  const HaloGeometry geo(dec, test::shaped_stencil("box", 1, 3), 1);
  const HaloPattern pattern = make_halo_pattern(geo, rank);
  for (const Backend& b : backends()) {
    auto plan = make_halo_plan(b.name, {pattern, MPI_COMM_WORLD, &geo});
    Field f("f", pattern.layout);
    EXPECT_THROW(plan->finish(f), Error) << b.name;
    plan->start(f);
    EXPECT_THROW(plan->start(f), Error) << b.name;
    plan->finish(f);
    EXPECT_THROW(plan->finish(f), Error) << b.name;
    plan->exchange(f);  // still usable
  }
}

TEST(HaloStartFinish, PlansWithoutTheGeometryTheyNeedAreRefused) {
  GlobalGrid g;
  g.dim = 3;
  g.n = {6, 6, 6};
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Decomposition dec(g, ProcessGrid::create(g, {0, 0, 0}, size));
  const HaloPattern pattern = make_halo_pattern(HaloGeometry(dec, test::shaped_stencil("star", 1, 3), 1), rank);
  EXPECT_THROW(make_halo_plan("cart_forwarding", {pattern, MPI_COMM_WORLD}), std::invalid_argument);
  EXPECT_NO_THROW(make_halo_plan("p2p", {pattern, MPI_COMM_WORLD}));
  EXPECT_THROW(make_halo_plan("smoke_signals", {pattern, MPI_COMM_WORLD}), std::invalid_argument);
}

TEST(HaloMpiErrors, AFailedCallIsAnErrorNamingTheCallAndRank) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  EXPECT_NO_THROW(check_mpi(MPI_SUCCESS, "MPI_Isend"));
  try {
    check_mpi(MPI_ERR_TAG, "MPI_Isend");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("MPI_Isend failed on rank " + std::to_string(rank) + ": ", 0), 0u) << what;
    EXPECT_GT(what.size(), std::string("MPI_Isend failed on rank 0: ").size()) << what;  // MPI's own words follow
  }
}

}  // namespace
}  // namespace cartex
