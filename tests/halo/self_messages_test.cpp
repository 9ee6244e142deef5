// One rule for every backend (docs/backends.md): a block a rank sends itself (a periodic dimension
// of one process) counts as a message and its bytes count, whether MPI carries it or the backend
// copies it locally. On one rank and a periodic grid every backend therefore reports the messages
// its schedule sends to the rank itself (p2p and p2p_persistent coalesce them into one message per
// partner, here the one self-message); graph_combining once reported 0 where p2p reported 6.
#include <gtest/gtest.h>
#include <mpi.h>

#include "cartex/core/decomposition.hpp"
#include "cartex/halo/backends.hpp"
#include "halo_test_support.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

// (messages, bytes) of every backend on a periodic n^3 grid owned by this one rank, named by the
// backend that runs (auto: the one it chose).
std::vector<std::pair<std::string, HaloStats>> stats_on_one_rank(const core::Stencil& st) {
  core::GlobalGrid g;
  g.dim = 3;
  g.n = {6, 6, 6};
  const core::ProcessGrid pg = core::ProcessGrid::create(g, {1, 1, 1}, 1);
  const core::Decomposition dec(g, pg);
  const HaloGeometry geo(dec, st, 1);
  const HaloPattern pattern = make_halo_pattern(geo, 0);
  std::vector<std::pair<std::string, HaloStats>> out;
  for (const Backend& b : backends()) {
    if (!halo::runs_here(b)) continue;
    const auto plan = make_halo_plan(b.name, {pattern, MPI_COMM_WORLD, &geo});
    out.emplace_back(plan->backend(), plan->stats());
  }
  return out;
}

TEST(HaloSelfMessages, SevenPointStarEveryBackendCountsItsFaceMessagesToItself) {
  const int size = test::world_size();
  ASSERT_EQ(size, 1) << "this test describes one rank";
  const long face_bytes = 6 * 6 * 6 * static_cast<long>(sizeof(double));  // 6 faces of 6x6 cells
  for (const auto& [backend, s] : stats_on_one_rank(test::shaped_stencil("star", 1, 3))) {
    const bool coalesced = backend == "p2p" || backend == "p2p_persistent";
    EXPECT_EQ(s.messages, coalesced ? 1 : 6) << backend;
    EXPECT_EQ(s.bytes, face_bytes) << backend;
  }
}

TEST(HaloSelfMessages, BoxStencilGraphCombiningCountsWhatDirectSends) {
  // 27pt: nothing to combine with on one rank, so graph_combining's 26 local copies are the 26
  // messages of mpi_neighbor_alltoallw, which sends every block on its own.
  HaloStats direct, graph;
  for (const auto& [backend, s] : stats_on_one_rank(test::shaped_stencil("box", 1, 3))) {
    if (backend == "mpi_neighbor_alltoallw") direct = s;
    if (backend == "graph_combining") graph = s;
  }
  EXPECT_EQ(direct.messages, 26);
  EXPECT_EQ(graph.messages, direct.messages);
  EXPECT_EQ(graph.bytes, direct.bytes);
}

}  // namespace
}  // namespace cartex
