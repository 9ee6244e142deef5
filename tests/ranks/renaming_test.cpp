// comm/ranks without communication: f_SQ / f_RR (NESUS'14 equations 1-2), layout classification,
// the environment-selected layout, and inter-node message/byte counts of ring allreduces and halo
// exchanges checked against values computed by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "cartex/ranks/allreduce.hpp"
#include "cartex/ranks/grid_reordering.hpp"
#include "cartex/ranks/layout.hpp"
#include "cartex/ranks/renaming.hpp"
#include "mpi_world.hpp"

namespace {

using namespace cartex::ranks;

TEST(Renaming, FsqAndFrrAreInversePermutations) {
  for (int procs = 1; procs <= 24; ++procs)
    for (int nodes = 1; nodes <= procs; ++nodes) {
      if (procs % nodes) continue;
      std::set<int> image;
      for (int p = 0; p < procs; ++p) {
        image.insert(f_sq(p, procs, nodes));
        EXPECT_EQ(f_rr(f_sq(p, procs, nodes), procs, nodes), p) << procs << " " << nodes;
        EXPECT_EQ(f_sq(f_rr(p, procs, nodes), procs, nodes), p) << procs << " " << nodes;
      }
      EXPECT_EQ(static_cast<int>(image.size()), procs);
    }
}

TEST(Renaming, PaperFigure2Example) {
  // P = 6, M = 2: process 2 behaves as 1, sends to f_RR(2) = 4 and receives from f_RR(0) = 0.
  EXPECT_EQ(f_sq(2, 6, 2), 1);
  EXPECT_EQ(f_rr(f_sq(2, 6, 2) + 1, 6, 2), 4);
  EXPECT_EQ(f_rr(f_sq(2, 6, 2) - 1, 6, 2), 0);
}

TEST(Renaming, RingStarKeepsConsecutiveVirtualRanksOnOneNode) {
  for (Mapping m : {Mapping::sequential, Mapping::round_robin}) {
    const NodeLayout layout = simulated_layout(12, 4, m);
    const Renaming r = Renaming::sequential_for(layout);
    for (int v = 0; v < 12; ++v) EXPECT_EQ(layout.node_of(r.real_of(v)), v / 4) << to_string(m);
  }
  const NodeLayout irregular(std::vector<int>{5, 9, 5, 9, 9, 1});
  EXPECT_EQ(irregular.mapping(), Mapping::irregular);
  const Renaming r = Renaming::sequential_for(irregular);
  const std::vector<int> expect = {0, 2, 1, 3, 4, 5};  // node of rank 0: {0,2}, node of 1: {1,3,4}, then {5}
  for (int v = 0; v < 6; ++v) EXPECT_EQ(r.real_of(v), expect[static_cast<std::size_t>(v)]);
}

TEST(Layout, Classification) {
  EXPECT_EQ(simulated_layout(8, 4, Mapping::sequential).mapping(), Mapping::sequential);
  EXPECT_EQ(simulated_layout(8, 4, Mapping::round_robin).mapping(), Mapping::round_robin);
  EXPECT_EQ(simulated_layout(8, 4, Mapping::round_robin).node_of(5), 1);
  EXPECT_EQ(simulated_layout(8, 8, Mapping::round_robin).mapping(), Mapping::sequential);
  EXPECT_EQ(simulated_layout(7, 3, Mapping::sequential).mapping(), Mapping::irregular);
  EXPECT_EQ(NodeLayout(std::vector<int>{0, 1, 1, 0}).mapping(), Mapping::irregular);
  EXPECT_EQ(NodeLayout(std::vector<int>{3, 3, 8, 8}).ranks_per_node(), 2);
}

TEST(Layout, FromEnvironment) {
  setenv("CARTEX_RANKS_PER_NODE", "1", 1);
  setenv("CARTEX_RANK_MAPPING", "round_robin", 1);
  const int procs = cartex::test::world_size();
  EXPECT_EQ(layout_from_env(MPI_COMM_WORLD).nodes(), procs);
  setenv("CARTEX_RANK_MAPPING", "diagonal", 1);
  EXPECT_THROW(layout_from_env(MPI_COMM_WORLD), std::invalid_argument);
  setenv("CARTEX_RANKS_PER_NODE", "4x", 1);
  EXPECT_THROW(layout_from_env(MPI_COMM_WORLD), std::invalid_argument);
  unsetenv("CARTEX_RANKS_PER_NODE");
  unsetenv("CARTEX_RANK_MAPPING");
  EXPECT_EQ(layout_from_env(MPI_COMM_WORLD).nodes(), 1);  // detected: one machine
}

TEST(RingTraffic, HandComputedCounts) {
  // P = 8, Q = 4, M = 2, 8 ints: 14 stages of 8 messages of one 4-byte segment.
  // Sequential: 2 of 8 ring hops cross nodes (3->4, 7->0); round-robin: all 8; Ring*: 2 again.
  const NodeLayout seq = simulated_layout(8, 4, Mapping::sequential), rr = simulated_layout(8, 4, Mapping::round_robin);
  const Traffic a = ring_traffic(seq, Renaming::identity(8), 8, 4);
  EXPECT_EQ(a.messages, 112);
  EXPECT_EQ(a.bytes, 448);
  EXPECT_EQ(a.inter_node_messages, 28);
  EXPECT_EQ(a.inter_node_bytes, 112);
  const Traffic b = ring_traffic(rr, Renaming::identity(8), 8, 4);
  EXPECT_EQ(b.inter_node_messages, 112);
  EXPECT_EQ(b.inter_node_bytes, 448);
  const Traffic c = ring_traffic(rr, Renaming::sequential_for(rr), 8, 4);
  EXPECT_EQ(c.inter_node_messages, 28);
  EXPECT_EQ(c.inter_node_bytes, 112);
  // P = 6, Q = 3, 12 doubles (2 per segment, 16 B): 10 stages; sequential 2 crossing hops, round-robin 6.
  const NodeLayout rr6 = simulated_layout(6, 3, Mapping::round_robin);
  EXPECT_EQ(ring_traffic(rr6, Renaming::identity(6), 12, 8).inter_node_bytes, 960);
  EXPECT_EQ(ring_traffic(rr6, Renaming::sequential_for(rr6), 12, 8).inter_node_bytes, 320);
  EXPECT_EQ(ring_traffic(rr6, Renaming::sequential_for(rr6), 12, 8).inter_node_messages, 20);
}

std::vector<HaloNeighbor> faces(const std::vector<std::int64_t>& bytes_per_dim) {
  std::vector<HaloNeighbor> n;
  const std::size_t d = bytes_per_dim.size();
  for (std::size_t i = 0; i < d; ++i)
    for (int s : {-1, 1}) {
      HaloNeighbor h{std::vector<int>(d, 0), bytes_per_dim[i]};
      h.offset[i] = s;
      n.push_back(h);
    }
  return n;
}

TEST(HaloTraffic, Grid4x2HandComputed) {
  // 4x2 mesh, 5-point faces: x-faces 100 B, y-faces 200 B; 8 ranks, 4 per node.
  // Sequential: node 0 = x in {0,1}; the x-boundary 1|2 is crossed by 2 rows x 2 directions
  // = 4 messages, 400 B. Round-robin: node = rank mod 2 = y, so every y message crosses:
  // 4 columns x 2 directions = 8 messages, 1600 B. Reordered, both hold 2x2 blocks: 4, 400 B.
  const std::vector<int> dims = {4, 2}, mesh = {0, 0};
  const auto nb = faces({100, 200});
  const NodeLayout seq = simulated_layout(8, 4, Mapping::sequential), rr = simulated_layout(8, 4, Mapping::round_robin);
  const Traffic s = halo_traffic(dims, mesh, nb, seq, identity_assignment(dims));
  EXPECT_EQ(s.messages, 20);
  EXPECT_EQ(s.bytes, 12 * 100 + 8 * 200);
  EXPECT_EQ(s.inter_node_messages, 4);
  EXPECT_EQ(s.inter_node_bytes, 400);
  const Traffic r = halo_traffic(dims, mesh, nb, rr, identity_assignment(dims));
  EXPECT_EQ(r.inter_node_messages, 8);
  EXPECT_EQ(r.inter_node_bytes, 1600);
  const GridAssignment a = node_block_assignment(dims, mesh, nb, rr);
  EXPECT_EQ(a.block, (std::vector<int>{2, 2}));
  const Traffic ra = halo_traffic(dims, mesh, nb, rr, a);
  EXPECT_EQ(ra.inter_node_messages, 4);
  EXPECT_EQ(ra.inter_node_bytes, 400);
  EXPECT_EQ(ra.messages, s.messages);
  const Traffic sa = halo_traffic(dims, mesh, nb, seq, node_block_assignment(dims, mesh, nb, seq));
  EXPECT_EQ(sa.inter_node_bytes, 400);  // already compact: the identity is kept
}

TEST(HaloTraffic, PeriodicGridAndCube) {
  // 4x2 torus: sequential crosses at x = 1|2 and 3|0: 2 boundaries x 2 rows x 2 directions = 8
  // messages, 800 B; round-robin: all 16 y messages (+y and -y both reach the other row), 3200 B.
  const std::vector<int> dims = {4, 2}, torus = {1, 1};
  const auto nb = faces({100, 200});
  const NodeLayout seq = simulated_layout(8, 4, Mapping::sequential), rr = simulated_layout(8, 4, Mapping::round_robin);
  EXPECT_EQ(halo_traffic(dims, torus, nb, seq, identity_assignment(dims)).inter_node_bytes, 800);
  EXPECT_EQ(halo_traffic(dims, torus, nb, rr, identity_assignment(dims)).inter_node_bytes, 3200);
  EXPECT_EQ(halo_traffic(dims, torus, nb, rr, node_block_assignment(dims, torus, nb, rr)).inter_node_bytes, 800);
  // 2x2x2 mesh, faces 100/200/300 B, 4 ranks per node. Sequential splits along x (8 messages,
  // 800 B), round-robin along z (8 messages, 2400 B); reordering picks the x split for both.
  const std::vector<int> cube = {2, 2, 2}, mesh3 = {0, 0, 0};
  const auto nb3 = faces({100, 200, 300});
  const NodeLayout seq3 = simulated_layout(8, 4, Mapping::sequential), rr3 = simulated_layout(8, 4, Mapping::round_robin);
  EXPECT_EQ(halo_traffic(cube, mesh3, nb3, seq3, identity_assignment(cube)).inter_node_bytes, 800);
  const Traffic r3 = halo_traffic(cube, mesh3, nb3, rr3, identity_assignment(cube));
  EXPECT_EQ(r3.inter_node_messages, 8);
  EXPECT_EQ(r3.inter_node_bytes, 2400);
  const GridAssignment a3 = node_block_assignment(cube, mesh3, nb3, rr3);
  EXPECT_EQ(a3.block, (std::vector<int>{1, 2, 2}));
  EXPECT_EQ(halo_traffic(cube, mesh3, nb3, rr3, a3).inter_node_bytes, 800);
}

}  // namespace

// comm.allreduce is validated against algorithm_names(): every name parses and round-trips.
TEST(Algorithms, EveryListedNameParses) {
  for (const auto& name : algorithm_names()) EXPECT_EQ(to_string(parse_algorithm(name)), name);
  EXPECT_EQ(algorithm_names().size(), 3u);
  EXPECT_THROW(parse_algorithm("tree"), std::invalid_argument);
}
