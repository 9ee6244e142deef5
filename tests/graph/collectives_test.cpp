// comm/graph: allgather, allgatherv and alltoallv, blocking and persistent, on random Erdos-Renyi
// graphs, Moore neighborhoods (D = 2, 3; R = 1, 2; torus and mesh), isolated ranks, self loops with
// repeated edges and asymmetric edges, for theta = 1, 2, 4. The expected receive buffers --
// blocks, gaps and space after them (untouched) -- are computed from the global edge lists alone,
// as MPI-4.1 section 8.6 defines the neighborhood collectives: block l comes from the l-th source,
// and the k-th edge from process q to this one (k-th occurrence of q in the source list) carries
// q's send block for its k-th edge to this process (k-th occurrence in q's destination list). No
// MPI collective is the reference: MPI libraries differ in how they pair repeated edges (MPICH 4.0
// reverses them), and some reject an empty vector's data() as a buffer, so every buffer passed to
// MPI here has at least one element. Checks record failures and continue, so all ranks make the
// same collective calls. All cases run inside this one binary (8 oversubscribed ranks start
// slowly).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cartex/graph/collectives.hpp"
#include "cartex/graph/error.hpp"
#include "cartex/graph/pattern.hpp"
#include "graphs.hpp"
#include "mpi_world.hpp"

namespace {

using cartex::graph::Pattern;
using graphtest::Graph;

constexpr int kSentinel = -7;

using cartex::test::world_rank;
using cartex::test::world_size;
using cartex::test::world_sum;

std::vector<Graph> all_graphs() {
  const int p = world_size();
  std::vector<Graph> g;
  for (double density : {0.1, 0.3, 0.6})
    for (unsigned seed : {1u, 2u, 3u}) g.push_back(graphtest::erdos_renyi(p, density, seed));
  for (int d : {2, 3})
    for (int r : {1, 2})
      for (bool periodic : {true, false}) g.push_back(graphtest::moore(p, d, r, periodic));
  g.push_back(graphtest::isolated_ranks(p));
  g.push_back(graphtest::self_loops_and_repeats(p));
  g.push_back(graphtest::complete(p));
  g.push_back(graphtest::upper_triangle(p));
  return g;
}

struct Neighbors {
  std::vector<int> sources, targets;
};

Neighbors neighbors_of(MPI_Comm comm) {
  int indeg = 0, outdeg = 0, weighted = 0;
  MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted);
  Neighbors n{std::vector<int>(static_cast<std::size_t>(indeg) + 1), std::vector<int>(static_cast<std::size_t>(outdeg) + 1)};
  MPI_Dist_graph_neighbors(comm, indeg, n.sources.data(), MPI_UNWEIGHTED, outdeg, n.targets.data(), MPI_UNWEIGHTED);
  n.sources.resize(static_cast<std::size_t>(indeg));
  n.targets.resize(static_cast<std::size_t>(outdeg));
  return n;
}

// This process's incoming edges from the global edge lists, in the order create_comm gives them to
// MPI: for each, the source q and the index in q's destination list of the edge (so the k-th
// occurrence of q here is paired with the k-th occurrence of this process in q's list).
struct InEdge {
  int source;
  int index;  // position of the edge in g.out[source]
};

std::vector<InEdge> in_edges(const Graph& g, int me) {
  std::vector<InEdge> in;
  for (std::size_t q = 0; q < g.out.size(); ++q)
    for (std::size_t j = 0; j < g.out[q].size(); ++j)
      if (g.out[q][j] == me) in.push_back({static_cast<int>(q), static_cast<int>(j)});
  return in;
}

// One graph and theta: the comm, its pattern, the neighbor lists and the expected incoming edges.
struct Case {
  Case(const Graph& g, int theta) : name(g.name + " theta=" + std::to_string(theta)) {
    comm = graphtest::create_comm(g);
    pattern = Pattern::build(comm, theta);
    nb = neighbors_of(comm);
    in = in_edges(g, world_rank());
    std::vector<int> sources;
    for (const InEdge& e : in) sources.push_back(e.source);
    EXPECT_EQ(nb.sources, sources) << name << ": MPI_Dist_graph_neighbors sources";
    EXPECT_EQ(nb.targets, g.out[static_cast<std::size_t>(world_rank())]) << name << ": MPI_Dist_graph_neighbors targets";
  }
  ~Case() {
    pattern.reset();
    MPI_Comm_free(&comm);
  }
  std::string name;
  MPI_Comm comm = MPI_COMM_NULL;
  std::shared_ptr<const Pattern> pattern;
  Neighbors nb;
  std::vector<InEdge> in;
};

// Records (never aborts) every element of got that differs from expect: the count and the first few.
void expect_buffer(const std::vector<int>& got, const std::vector<int>& expect, const std::string& what) {
  ASSERT_EQ(got.size(), expect.size()) << what;  // the test's own bookkeeping, the same on every rank
  std::size_t bad = 0;
  std::string first;
  for (std::size_t j = 0; j < got.size(); ++j)
    if (got[j] != expect[j] && ++bad <= 4)
      first += " [" + std::to_string(j) + "] got " + std::to_string(got[j]) + " expected " + std::to_string(expect[j]) + ";";
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << got.size() << " elements differ:" << first
                     << " (untouched = " << kSentinel << ")";
}

// Runs a cartex call; an exception is recorded instead of leaving this rank's test early.
void run(const std::string& what, const std::function<void()>& call) {
  try {
    call();
  } catch (const std::exception& ex) {
    ADD_FAILURE() << what << " threw: " << ex.what();
  }
}

// Every process sends m ints q * 1000 + k + salt; block l (m ints) holds source l's, one int after
// the last block stays untouched.
void check_allgather(const Case& c, int salt) {
  const int me = world_rank(), m = 3;
  std::vector<int> send(m);
  auto fill = [&](int s) {
    for (int k = 0; k < m; ++k) send[static_cast<std::size_t>(k)] = me * 1000 + k + s;
  };
  auto expected = [&](int s) {
    std::vector<int> e(c.in.size() * m + 1, kSentinel);
    for (std::size_t l = 0; l < c.in.size(); ++l)
      for (int k = 0; k < m; ++k) e[l * m + static_cast<std::size_t>(k)] = c.in[l].source * 1000 + k + s;
    return e;
  };
  const std::size_t n = c.in.size() * m + 1;
  std::vector<int> got(n, kSentinel), persistent(n, kSentinel);
  fill(salt);
  run(c.name + " allgather",
      [&] { cartex::graph::neighbor_allgather(send.data(), m, MPI_INT, got.data(), m, MPI_INT, c.pattern); });
  expect_buffer(got, expected(salt), c.name + " allgather");
  std::unique_ptr<cartex::graph::Plan> plan;
  run(c.name + " allgather_init", [&] {
    plan = std::make_unique<cartex::graph::Plan>(cartex::graph::neighbor_allgather_init(
        send.data(), m, MPI_INT, persistent.data(), m, MPI_INT, c.pattern));
  });
  for (int round = 0; round < 2; ++round) {
    fill(salt + 100 * round);
    if (plan) run(c.name + " allgather_init execute", [&] { plan->execute(); });
    expect_buffer(persistent, expected(salt + 100 * round), c.name + " allgather_init round " + std::to_string(round));
  }
}

// Process q sends 1 + q % 3 ints q * 100 + k + salt; block l has the count of its source and a
// one-int gap after it that must stay untouched.
void check_allgatherv(const Case& c) {
  const int me = world_rank();
  const int mine = 1 + me % 3;
  std::vector<int> send(static_cast<std::size_t>(mine));
  auto fill = [&](int salt) {
    for (int k = 0; k < mine; ++k) send[static_cast<std::size_t>(k)] = me * 100 + k + salt;
  };
  std::vector<int> counts, displs;
  int top = 0;
  for (const InEdge& e : c.in) {
    counts.push_back(1 + e.source % 3);
    displs.push_back(top);
    top += counts.back() + 1;
  }
  auto expected = [&](int salt) {
    std::vector<int> e(static_cast<std::size_t>(top) + 1, kSentinel);
    for (std::size_t l = 0; l < c.in.size(); ++l)
      for (int k = 0; k < counts[l]; ++k) e[static_cast<std::size_t>(displs[l] + k)] = c.in[l].source * 100 + k + salt;
    return e;
  };
  counts.push_back(0);  // never a null or empty array, even for no sources
  displs.push_back(0);
  std::vector<int> got(static_cast<std::size_t>(top) + 1, kSentinel), persistent = got;
  fill(0);
  run(c.name + " allgatherv", [&] {
    cartex::graph::neighbor_allgatherv(send.data(), mine, MPI_INT, got.data(), counts.data(), displs.data(), MPI_INT,
                                       c.pattern);
  });
  expect_buffer(got, expected(0), c.name + " allgatherv");
  std::unique_ptr<cartex::graph::Plan> plan;
  run(c.name + " allgatherv_init", [&] {
    plan = std::make_unique<cartex::graph::Plan>(cartex::graph::neighbor_allgatherv_init(
        send.data(), mine, MPI_INT, persistent.data(), counts.data(), displs.data(), MPI_INT, c.pattern));
  });
  for (int round = 0; round < 2; ++round) {
    fill(50 * round);
    if (plan) run(c.name + " allgatherv_init execute", [&] { plan->execute(); });
    expect_buffer(persistent, expected(50 * round), c.name + " allgatherv_init round " + std::to_string(round));
  }
}

// Process q's block for its j-th destination t has 1 + (q + t) % 3 ints q * 10000 + t * 100 + j * 4
// + k + salt, so the block received on every edge, repeated ones included, tells which edge it was.
void check_alltoallv(const Case& c) {
  const int me = world_rank();
  std::vector<int> scounts, sdispls;
  int stop = 0;
  for (std::size_t j = 0; j < c.nb.targets.size(); ++j) {
    scounts.push_back(1 + (me + c.nb.targets[j]) % 3);
    sdispls.push_back(stop);
    stop += scounts.back();
  }
  std::vector<int> send(static_cast<std::size_t>(stop) + 1, kSentinel);
  auto fill = [&](int salt) {
    for (std::size_t j = 0; j < c.nb.targets.size(); ++j)
      for (int k = 0; k < scounts[j]; ++k)
        send[static_cast<std::size_t>(sdispls[j] + k)] = me * 10000 + c.nb.targets[j] * 100 + static_cast<int>(j) * 4 + k + salt;
  };
  std::vector<int> rcounts, rdispls;
  int top = 0;
  for (const InEdge& e : c.in) {
    rcounts.push_back(1 + (me + e.source) % 3);
    rdispls.push_back(top);
    top += rcounts.back() + 1;
  }
  auto expected = [&](int salt) {
    std::vector<int> e(static_cast<std::size_t>(top) + 1, kSentinel);
    for (std::size_t l = 0; l < c.in.size(); ++l)
      for (int k = 0; k < rcounts[l]; ++k)
        e[static_cast<std::size_t>(rdispls[l] + k)] = c.in[l].source * 10000 + me * 100 + c.in[l].index * 4 + k + salt;
    return e;
  };
  for (auto* v : {&scounts, &sdispls, &rcounts, &rdispls}) v->push_back(0);  // never a null or empty array
  std::vector<int> got(static_cast<std::size_t>(top) + 1, kSentinel), persistent = got;
  fill(0);
  run(c.name + " alltoallv", [&] {
    cartex::graph::neighbor_alltoallv(send.data(), scounts.data(), sdispls.data(), MPI_INT, got.data(), rcounts.data(),
                                      rdispls.data(), MPI_INT, c.pattern);
  });
  expect_buffer(got, expected(0), c.name + " alltoallv");
  std::unique_ptr<cartex::graph::Plan> plan;
  run(c.name + " alltoallv_init", [&] {
    plan = std::make_unique<cartex::graph::Plan>(cartex::graph::neighbor_alltoallv_init(
        send.data(), scounts.data(), sdispls.data(), MPI_INT, persistent.data(), rcounts.data(), rdispls.data(), MPI_INT,
        c.pattern));
  });
  for (int round = 0; round < 2; ++round) {
    fill(3 * round);
    if (plan) run(c.name + " alltoallv_init execute", [&] { plan->execute(); });
    expect_buffer(persistent, expected(3 * round), c.name + " alltoallv_init round " + std::to_string(round));
  }
}

TEST(GraphCollectives, ExpectedDataOnAllGraphsAndThresholds) {
  int combined_cases = 0;  // cases in which some process paired: the combining path was exercised
  for (const Graph& g : all_graphs())
    for (int theta : {1, 2, 4}) {
      Case c(g, theta);
      EXPECT_EQ(c.pattern->theta(), theta);
      combined_cases += world_sum(c.pattern->pairings()) > 0 ? 1 : 0;
      check_allgather(c, theta);
      check_allgatherv(c);
      check_alltoallv(c);
    }
  EXPECT_GE(combined_cases, 20);
}

TEST(GraphCollectives, NonContiguousDatatypes) {
  // Every other int of the send buffer, received into a strided receive type of the same signature:
  // the type covers ints 0 and 2 and has an extent of 3 ints, so block l fills ints 3l and 3l + 2.
  Case c(graphtest::moore(world_size(), 2, 1, true), 1);
  const int me = world_rank();
  MPI_Datatype every_other = MPI_DATATYPE_NULL;
  MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  const std::vector<int> send = {me, -1, me + 50, -1};
  const std::size_t n = c.in.size();
  std::vector<int> got(4 * n + 1, kSentinel), expect = got;
  for (std::size_t l = 0; l < n; ++l) {
    expect[3 * l] = c.in[l].source;
    expect[3 * l + 2] = c.in[l].source + 50;
  }
  run("allgather", [&] {
    cartex::graph::neighbor_allgather(send.data(), 1, every_other, got.data(), 1, every_other, c.pattern);
  });
  MPI_Type_free(&every_other);
  expect_buffer(got, expect, "strided allgather");
}

TEST(GraphPattern, MooreNeighborhoodsCombine) {
  // Moore D=2 R=2 on the torus shares many out-neighbors between adjacent processes: with theta 1
  // somebody must pair, and the pattern must keep every out-neighbor covered exactly once.
  Case c(graphtest::moore(world_size(), 2, 2, true), 1);
  EXPECT_GT(world_sum(c.pattern->pairings()), 0);
  EXPECT_GE(c.pattern->iterations(), 1);
  std::vector<int> covered = c.pattern->direct_targets();
  for (const auto& s : c.pattern->steps()) {
    covered.insert(covered.end(), s.onloaded.begin(), s.onloaded.end());
    covered.insert(covered.end(), s.offloaded.begin(), s.offloaded.end());
    if (s.friend_rank >= 0) EXPECT_FALSE(s.onloaded.empty() && s.offloaded.empty());
  }
  std::sort(covered.begin(), covered.end());
  std::vector<int> distinct = c.nb.targets;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  distinct.erase(std::remove(distinct.begin(), distinct.end(), world_rank()), distinct.end());
  EXPECT_EQ(covered, distinct);
}

TEST(GraphPattern, CompleteGraphNeedsFewerStages) {
  // Complete digraph, P >= 6: a pair shares P-2 out-neighbors and splits them, so every process
  // sends 1 + ceil((P-2)/2) + 1 < P-1 messages (the paper's k/2 + 1 stages instead of k).
  const int p = world_size();
  if (p < 6) GTEST_SKIP() << "needs 6 ranks";
  Case c(graphtest::complete(p), 4);
  EXPECT_EQ(c.pattern->max_naive_stages(), p - 1);
  EXPECT_LT(c.pattern->max_stages(), p - 1);
}

TEST(GraphPattern, HighThresholdMeansNoCombining) {
  // Theta above any possible common neighborhood: no friends, no steps, every edge direct.
  Case c(graphtest::erdos_renyi(world_size(), 0.6, 5), 1000);
  EXPECT_EQ(c.pattern->iterations(), 0);
  EXPECT_EQ(c.pattern->stages(), c.pattern->naive_stages());
}

TEST(GraphPattern, RejectsNonGraphCommunicatorsAndBadTheta) {
  EXPECT_THROW(Pattern::build(MPI_COMM_WORLD, 4), cartex::graph::Error);
  Case c(graphtest::complete(world_size()), 4);
  EXPECT_THROW(Pattern::build(c.comm, 0), cartex::graph::Error);
}

}  // namespace
