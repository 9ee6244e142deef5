// Deep halos (issue 13): the geometry of k = 30 steps of the 7-point star (which took about ten
// seconds when S^k was formed point set by point set) is the exact octahedral shell, built by a
// stencil walk that visits each cell of its tables once; a halo deeper than the grid is refused
// with the limit before anything is built.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cartex/halo/pattern.hpp"
#include "halo_test_support.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

// Cells c outside box b with sum_d dist_d(c, b) <= k: the halo of b for k steps of the 7-point star.
long octahedral_shell_cells(const core::Box& b, long k) {
  long count = 0;
  std::array<long, 3> c{};
  for (c[2] = b.lo[2] - k; c[2] < b.hi(2) + k; ++c[2])
    for (c[1] = b.lo[1] - k; c[1] < b.hi(1) + k; ++c[1])
      for (c[0] = b.lo[0] - k; c[0] < b.hi(0) + k; ++c[0]) {
        long dist = 0;
        for (int d = 0; d < 3; ++d) dist += std::max({0L, b.lo[d] - c[d], c[d] - b.hi(d) + 1});
        count += dist > 0 && dist <= k;
      }
  return count;
}

TEST(HaloDepth, DeepStarHaloIsTheOctahedralShellBuiltInLinearWork) {
  const int rank = test::world_rank(), size = test::world_size();
  core::GlobalGrid g;
  g.dim = 3;
  g.n = {33, 32, 32};  // uneven blocks along x on several ranks
  g.periodic = {true, true, true};
  const core::ProcessGrid pg = core::ProcessGrid::create(g, {0, 0, 0}, size);
  const core::Decomposition dec(g, pg);
  const core::Stencil st = test::shaped_stencil("star", 1, 3);
  const int k = 30;
  const HaloGeometry geo(dec, st, k);
  const HaloPattern p = make_halo_pattern(geo, rank);
  long received = 0;
  for (const auto& b : p.blocks) received += static_cast<long>(b.recv.size());
  // Periodic: every halo cell has an owner, so the received cells are the whole shell.
  EXPECT_EQ(received, octahedral_shell_cells(dec.box(rank), k));
  // The walk tables: the bounding box of S^k and the smallest block's halo box, each cell once.
  const core::Box b = dec.box(rank);
  const long tables = (2L * k + 1) * (2L * k + 1) * (2L * k + 1) + (b.n[0] + 1 + 2L * k) * (b.n[1] + 2L * k) * (b.n[2] + 2L * k);
  EXPECT_LE(geo.walk_cells(), tables);
  EXPECT_GT(geo.walk_cells(), 0);
}

TEST(HaloDepth, HaloDeeperThanTheGridIsRefusedWithTheLimit) {
  core::GlobalGrid g;
  g.dim = 3;
  g.n = {40, 32, 20};
  g.periodic = {false, false, false};
  const core::Stencil star8 = test::shaped_stencil("star", 4, 3);
  EXPECT_NO_THROW(check_halo_depth(g, star8, 5));
  try {
    check_halo_depth(g, star8, 6);
    FAIL() << "k = 6 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the grid's 20 cells in z (4 cell(s) per step): at most 5 steps per exchange"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(check_halo_depth(g, star8, 0), std::invalid_argument);
}

TEST(HaloDepth, StencilWiderThanTheGridIsRefused) {
  core::GlobalGrid g;
  g.dim = 3;
  g.n = {40, 4, 3};
  g.periodic = {true, true, true};
  const core::Stencil star8 = test::shaped_stencil("star", 4, 3);
  const core::Stencil box1 = test::shaped_stencil("box", 1, 3);
  EXPECT_NO_THROW(check_stencil_fits(g, box1));
  try {
    check_stencil_fits(g, star8);
    FAIL() << "a reach of 4 accepted on 3 cells in z";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("3 cell(s) in z are fewer than the reach of stencil"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cartex
