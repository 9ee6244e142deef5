// Every plan of the registry refuses a second start before finish and a finish without start (the
// second start would post receives into buffers MPI still owns), and comm/halo's MPI error check
// names the call, the rank and MPI's error string.
#include <gtest/gtest.h>
#include <mpi.h>

#include "cartex/core/error.hpp"
#include "cartex/halo/backends.hpp"
#include "built_pattern.hpp"
#include "mpi_check.hpp"
#include "mpi_world.hpp"
#include "start_finish.hpp"

namespace cartex {
namespace {

using namespace halo;

// The geometry and this rank's pattern of a periodic 6^3 grid on every rank of MPI_COMM_WORLD.
test::BuiltPattern build(const std::string& shape) {
  return test::build_pattern({3, {6, 6, 6}, {true, true, true}, shape, 1, 1});
}

TEST(HaloStartFinish, EveryBackendRefusesASecondStartAndAFinishWithoutStart) {
  const test::BuiltPattern b = build("box");
  for (const Backend& row : backends()) {
    if (!halo::runs_here(row)) continue;
    auto plan = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo});
    core::Field f("f", b.pattern.layout);
    EXPECT_THROW(plan->finish(f), core::Error) << row.name;
    plan->start(f);
    EXPECT_THROW(plan->start(f), core::Error) << row.name;
    plan->finish(f);
    EXPECT_THROW(plan->finish(f), core::Error) << row.name;
    plan->exchange(f);  // still usable
  }
}

TEST(HaloStartFinish, PlansWithoutTheGeometryTheyNeedAreRefused) {
  const HaloPattern pattern = build("star").pattern;
  EXPECT_THROW(make_halo_plan("cart_forwarding", {pattern, MPI_COMM_WORLD}), std::invalid_argument);
  EXPECT_NO_THROW(make_halo_plan("p2p", {pattern, MPI_COMM_WORLD}));
  EXPECT_THROW(make_halo_plan("smoke_signals", {pattern, MPI_COMM_WORLD}), std::invalid_argument);
}

TEST(HaloMpiErrors, AFailedCallIsAnErrorNamingTheCallAndRank) {
  const int rank = test::world_rank();
  EXPECT_NO_THROW(check_mpi(MPI_SUCCESS, "MPI_Isend"));
  try {
    check_mpi(MPI_ERR_TAG, "MPI_Isend");
    ADD_FAILURE() << "no error";
  } catch (const core::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("MPI_Isend failed on rank " + std::to_string(rank) + ": ", 0), 0u) << what;
    EXPECT_GT(what.size(), std::string("MPI_Isend failed on rank 0: ").size()) << what;  // MPI's own words follow
  }
}

}  // namespace
}  // namespace cartex
