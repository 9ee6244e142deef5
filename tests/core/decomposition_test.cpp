// Decomposition: boxes tile the global grid exactly (every cell owned once, owner() agrees with the
// boxes) for awkward sizes and rank counts; process grids multiply to the rank count.
#include <gtest/gtest.h>

#include <vector>

#include "cartex/core/decomposition.hpp"

namespace cartex {
namespace {

core::GlobalGrid grid3(long nx, long ny, long nz) {
  core::GlobalGrid g;
  g.dim = 3;
  g.n = {nx, ny, nz};
  return g;
}

void expect_exact_tiling(const core::Decomposition& dec) {
  const core::GlobalGrid& g = dec.grid();
  std::vector<int> owner_count(g.cells(), 0);
  for (int r = 0; r < dec.procs().size(); ++r) {
    const core::Box b = dec.box(r);
    ASSERT_FALSE(b.empty()) << "rank " << r << " owns no cells";
    for (long z = b.lo[2]; z < b.hi(2); ++z)
      for (long y = b.lo[1]; y < b.hi(1); ++y)
        for (long x = b.lo[0]; x < b.hi(0); ++x) {
          ASSERT_EQ(dec.owner({x, y, z}), r) << "cell (" << x << "," << y << "," << z << ")";
          ++owner_count[(z * g.n[1] + y) * g.n[0] + x];
        }
  }
  for (long c = 0; c < g.cells(); ++c) ASSERT_EQ(owner_count[c], 1) << "cell " << c << " owned " << owner_count[c] << " times";
}

TEST(Decomposition, TilesAwkwardSizesExactly) {
  const std::vector<std::array<long, 3>> sizes = {{1, 1, 1}, {7, 5, 3}, {13, 11, 17}, {10, 10, 10}, {31, 2, 9}};
  for (const auto& n : sizes)
    for (int p = 1; p <= 12; ++p) {
      const core::GlobalGrid g = grid3(n[0], n[1], n[2]);
      core::ProcessGrid pg;
      try {
        pg = core::ProcessGrid::create(g, {0, 0, 0}, p);
      } catch (const std::invalid_argument&) {
        // More processes than cells in some dimension: rejected, which is the behaviour we want.
        EXPECT_GT(p, 1);
        continue;
      }
      EXPECT_EQ(pg.size(), p);
      SCOPED_TRACE(::testing::Message() << "grid " << n[0] << "x" << n[1] << "x" << n[2] << " on " << p);
      expect_exact_tiling(core::Decomposition(g, pg));
    }
}

TEST(Decomposition, BlockSizesDifferByAtMostOne) {
  const core::GlobalGrid g = grid3(10, 7, 5);
  core::ProcessGrid pg;
  pg.dims = {3, 2, 4};
  const core::Decomposition dec(g, pg);
  EXPECT_EQ(dec.box(pg.rank({0, 0, 0})).n, (std::array<long, 3>{4, 4, 2}));
  EXPECT_EQ(dec.box(pg.rank({2, 1, 3})).n, (std::array<long, 3>{3, 3, 1}));
  EXPECT_EQ(dec.box(pg.rank({2, 1, 3})).lo, (std::array<long, 3>{7, 4, 4}));
  EXPECT_EQ(dec.min_block(0), 3);
  expect_exact_tiling(dec);
}

TEST(ProcessGrid, RankCoordsRoundTripInMpiOrder) {
  core::ProcessGrid pg;
  pg.dims = {2, 3, 4};
  for (int r = 0; r < pg.size(); ++r) EXPECT_EQ(pg.rank(pg.coords(r)), r);
  // MPI_Cart_create(reorder = 0) order: the last dimension varies fastest.
  EXPECT_EQ(pg.coords(1), (std::array<int, 3>{0, 0, 1}));
  EXPECT_EQ(pg.coords(4), (std::array<int, 3>{0, 1, 0}));
  EXPECT_EQ(pg.coords(12), (std::array<int, 3>{1, 0, 0}));
}

TEST(ProcessGrid, HonoursGivenDimsAndRejectsWrongProducts) {
  const core::GlobalGrid g = grid3(8, 8, 8);
  EXPECT_EQ(core::ProcessGrid::create(g, {2, 0, 1}, 6).dims, (std::array<int, 3>{2, 3, 1}));
  EXPECT_EQ(core::ProcessGrid::create(g, {0, 0, 0}, 2).dims, (std::array<int, 3>{1, 1, 2}));
  EXPECT_THROW(core::ProcessGrid::create(g, {2, 2, 2}, 6), std::invalid_argument);
  EXPECT_THROW(core::ProcessGrid::create(g, {4, 0, 0}, 6), std::invalid_argument);
  EXPECT_THROW(core::ProcessGrid::create(grid3(8, 8, 1), {0, 0, 0}, 128), std::invalid_argument);
}

TEST(ProcessGrid, TwoDimensionalGridsNeverSplitZ) {
  core::GlobalGrid g = grid3(12, 12, 1);
  g.dim = 2;
  for (int p = 1; p <= 8; ++p) {
    auto pg = core::ProcessGrid::create(g, {0, 0, 0}, p);
    EXPECT_EQ(pg.dims[2], 1);
    EXPECT_EQ(pg.size(), p);
    expect_exact_tiling(core::Decomposition(g, pg));
  }
}

}  // namespace
}  // namespace cartex
