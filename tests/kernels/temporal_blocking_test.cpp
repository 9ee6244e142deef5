// Temporal blocking (cycle_regions.hpp): advancing the steps of a deep-halo cycle in skewed tiles
// gives, in every cell of both fields (ghosts included), the bits of the same steps run one after
// the other, for every builtin stencil (specialized kernels) and custom stencils (generic kernel),
// Euler and leapfrog, k = 1..8, 2D and 3D, periodic and walls, several tile sizes; and a pass asked
// for periodic x and y ghosts (PeriodicGhosts) leaves exactly those cells changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cartex/core/decomposition.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/kokkos_compat.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/halo/pattern.hpp"
#include "cartex/kernels/cycle_regions.hpp"
#include "cartex/kernels/stencil_update.hpp"

namespace cartex::kernels {
namespace {

using HostView = core::host_mirror_t<core::FieldView>;
using halo::HaloPattern;

// Rank 0's halo pattern of k steps of st (the halo layer builds it from the geometry).
HaloPattern make_halo_pattern(const core::Decomposition& dec, const core::Stencil& st, int k) {
  return halo::make_halo_pattern(halo::HaloGeometry(dec, st, k), 0);
}

core::GlobalGrid test_grid(int dim, bool periodic) {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = dim == 3 ? std::array<long, 3>{18, 17, 16} : std::array<long, 3>{40, 37, 1};
  g.periodic = {periodic, periodic, dim == 2 || periodic};
  for (int d = 0; d < 3; ++d) g.length[d] = static_cast<double>(periodic ? g.n[d] : g.n[d] + 1);  // h = 1
  return g;
}

// The stencils under test: the builtins and stars of radius 2..4 (specialized kernels) and an
// asymmetric custom stencil (generic kernel).
std::vector<core::Stencil> stencils(const core::GlobalGrid& g) {
  std::vector<core::Stencil> out;
  for (const auto& name : core::builtin_stencil_names(g.dim)) out.push_back(core::make_builtin_stencil(name, g));
  for (const int order : {4, 6, 8}) out.push_back(core::make_star_stencil(order, g));
  if (g.dim == 3)
    out.push_back(core::make_custom_stencil("skew", {{0, 0, 0}, {1, 0, 0}, {-2, 0, 0}, {0, 1, 1}, {0, -1, 0}, {0, 0, -2}, {1, -1, 0}},
                                      {-2.5, 0.5, 0.25, 0.5, 0.75, 0.25, 0.25}, 2, g));
  else
    out.push_back(core::make_custom_stencil("skew", {{0, 0, 0}, {1, 0, 0}, {-2, 0, 0}, {1, 1, 0}, {0, -1, 0}, {0, 2, 0}},
                                      {-2.5, 0.5, 0.75, 0.5, 0.5, 0.25}, 2, g));
  return out;
}

void fill_random(core::Field& f, unsigned seed) {
  HostView h = Kokkos::create_mirror_view(f.view);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  double* p = h.data();
  for (size_t i = 0; i < h.size(); ++i) p[i] = dist(gen);
  Kokkos::deep_copy(f.view, h);
}

// The first differing view index of a and b, or -1 if their bits are equal.
long first_difference(const core::Field& a, const core::Field& b) {
  HostView ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view);
  HostView hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view);
  for (size_t i = 0; i < ha.size(); ++i)
    if (std::memcmp(ha.data() + i, hb.data() + i, sizeof(double)) != 0) return static_cast<long>(i);
  return -1;
}

// Runs steps first..k of one cycle one by one and blocked with tile_y; expects equal bits everywhere.
// With `between`, the blocked pass is cut after every tile (overlap's progress calls): the hook must
// run once between each two tiles, and change nothing.
void expect_blocked_equals_single(const core::Stencil& st, const HaloPattern& p, core::Integrator scheme, int first, long tile_y,
                                  const std::string& what, bool between = false) {
  const int k = static_cast<int>(p.update.size());  // one update region per step of the cycle
  const StencilOperator op(st, p.layout, StencilOperator::Kernel::kAuto, scheme);
  const CycleRegions single(p.layout, st, p.update, TemporalTiling{0});
  const CycleRegions blocked(p.layout, st, p.update, TemporalTiling{tile_y});
  core::Field a1("a1", p.layout), b1("b1", p.layout), a2("a2", p.layout), b2("b2", p.layout);
  fill_random(a1, 1);
  fill_random(b1, 2);
  Kokkos::deep_copy(a2.view, a1.view);
  Kokkos::deep_copy(b2.view, b1.view);
  op.apply_steps(a1, b1, 0.01, single, first, k);
  long calls = 0;
  op.apply_steps(a2, b2, 0.01, blocked, first, k, between ? BetweenTiles([&] { ++calls; }) : BetweenTiles{});
  Kokkos::fence();
  const std::string where =
      what + " kernel " + op.kernel_name() + " tile_y " + std::to_string(tile_y) + (between ? " cut between tiles" : "");
  if (between) EXPECT_EQ(calls, (p.layout.extent(1) + tile_y - 1) / tile_y - 1) << where;
  EXPECT_EQ(first_difference(a1, a2), -1) << where;
  EXPECT_EQ(first_difference(b1, b2), -1) << where;
  // The steps changed something: the comparison is not between two untouched fields.
  core::Field a0("a0", p.layout);
  fill_random(a0, 1);
  EXPECT_NE(first_difference(a0, k % 2 == first % 2 ? b2 : a2), -1) << where;
}

TEST(TemporalBlocking, BlockedCycleIsBitwiseTheSingleSteps) {
  for (const int dim : {2, 3}) {
    for (const bool periodic : {true, false}) {
      const core::GlobalGrid g = test_grid(dim, periodic);
      const core::Decomposition dec(g, core::ProcessGrid::create(g, {1, 1, 1}, 1));
      for (const core::Stencil& st : stencils(g)) {
        const auto r = st.reach();
        const int reach = std::max({r.lo[0], r.hi[0], r.lo[1], r.hi[1], r.lo[2], r.hi[2]});
        for (int k = 1; k <= 8 && k * reach <= 16; ++k) {
          const HaloPattern p = make_halo_pattern(dec, st, k);
          for (const core::Integrator scheme : {core::Integrator::kExplicitEuler, core::Integrator::kLeapfrog}) {
            const std::string what = std::to_string(dim) + "D " + (periodic ? "periodic" : "walls") + " " + st.name +
                                     " k " + std::to_string(k) + (scheme == core::Integrator::kExplicitEuler ? " euler" : " leapfrog");
            for (const long tile_y : {1L, 4L, default_tile_y(TileBasis::of(p.layout)), p.layout.extent(1)})
              expect_blocked_equals_single(st, p, scheme, 1, tile_y, what);
            expect_blocked_equals_single(st, p, scheme, 1, 5, what, true);
            // With overlap the cycle's first step runs on its own and the rest are blocked.
            if (k > 1) expect_blocked_equals_single(st, p, scheme, 2, 3, what + " from step 2");
          }
        }
      }
    }
  }
}

// PeriodicGhosts::kX: the field the last step wrote holds, in every x ghost of every block row (the
// view's whole x halo), the block cell n_x away in the same row; kXY: also, in every ghost row in y of
// every block plane (the view's whole y halo), the row n_y away, x ghosts included; everywhere else
// the bits of the same steps asked for nothing; the other field is untouched by it. Blocked (several
// tile heights, the pass starting at step 1 or 2) and one step at a time.
TEST(TemporalBlocking, PeriodicGhostsAreTheirImagesAndNothingElseChanges) {
  for (const PeriodicGhosts ghosts : {PeriodicGhosts::kX, PeriodicGhosts::kXY})
  for (const int dim : {2, 3}) {
    const core::GlobalGrid g = test_grid(dim, true);
    const core::Decomposition dec(g, core::ProcessGrid::create(g, {1, 1, 1}, 1));
    for (const core::Stencil& st : stencils(g)) {
      for (const int k : {1, 2, 3}) {
        const HaloPattern p = make_halo_pattern(dec, st, k);
        const core::FieldLayout& L = p.layout;
        const StencilOperator op(st, L);
        for (const long tile_y : {0L, 3L, default_tile_y(TileBasis::of(L))}) {
          for (const int first : {1, 2}) {
            if (first > k) continue;
            const CycleRegions steps(L, st, p.update, TemporalTiling{tile_y});
            core::Field a1("a1", L), b1("b1", L), a2("a2", L), b2("b2", L);
            fill_random(a1, 3);
            fill_random(b1, 4);
            Kokkos::deep_copy(a2.view, a1.view);
            Kokkos::deep_copy(b2.view, b1.view);
            op.apply_steps(a1, b1, 0.01, steps, first, k);
            op.apply_steps(a2, b2, 0.01, steps, first, k, {}, nullptr, ghosts);
            Kokkos::fence();
            const bool in_b = (k - first) % 2 == 0;  // the field the last step wrote
            const std::string where = std::to_string(dim) + "D " + st.name + " k " + std::to_string(k) + " tile_y " +
                                      std::to_string(tile_y) + " first " + std::to_string(first) +
                                      (ghosts == PeriodicGhosts::kXY ? " x and y" : " x");
            EXPECT_EQ(first_difference(in_b ? a1 : b1, in_b ? a2 : b2), -1) << where;
            HostView want = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), (in_b ? b1 : a1).view);
            HostView got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), (in_b ? b2 : a2).view);
            const long lo = L.halo.lo[0], n = L.box.n[0], x_ghosts = lo + L.halo.hi[0];
            long filled = 0;
            for (long z = L.halo.lo[2]; z < L.halo.lo[2] + L.box.n[2]; ++z)
              for (long y = L.halo.lo[1]; y < L.halo.lo[1] + L.box.n[1]; ++y)
                for (long x = 0; x < L.extent(0); ++x) {
                  if (x >= lo && x < lo + n) continue;
                  want(z, y, x) = want(z, y, x < lo ? x + n : x - n);
                  ++filled;
                }
            EXPECT_EQ(filled, x_ghosts * L.box.n[1] * L.box.n[2]) << where;
            if (ghosts == PeriodicGhosts::kXY) {
              const long ylo = L.halo.lo[1], ny = L.box.n[1];
              long rows = 0;
              for (long z = L.halo.lo[2]; z < L.halo.lo[2] + L.box.n[2]; ++z)
                for (long y = 0; y < L.extent(1); ++y) {
                  if (y >= ylo && y < ylo + ny) continue;
                  for (long x = 0; x < L.extent(0); ++x) want(z, y, x) = want(z, y < ylo ? y + ny : y - ny, x);
                  ++rows;
                }
              EXPECT_EQ(rows, (ylo + L.halo.hi[1]) * L.box.n[2]) << where;
            }
            long wrong = 0;
            for (size_t i = 0; i < want.size(); ++i) wrong += std::memcmp(want.data() + i, got.data() + i, sizeof(double)) != 0;
            EXPECT_EQ(wrong, 0) << where;
          }
        }
      }
    }
  }
}

// Retiling (auto's tile walk) gives the cycle a fresh build with that tile height would: the same
// tiles at every step (wall rows too) and the same bits from a pass.
TEST(TemporalBlocking, RetiledCycleIsTheFreshlyBuiltOne) {
  const core::GlobalGrid g = test_grid(3, true);
  const core::Decomposition dec(g, core::ProcessGrid::create(g, {1, 1, 1}, 1));
  const core::Stencil st = core::make_builtin_stencil("7pt", g);
  const HaloPattern p = make_halo_pattern(dec, st, 3);
  const StencilOperator op(st, p.layout);
  for (const std::array<long, 2> walls : {std::array<long, 2>{0, 0}, std::array<long, 2>{3, 2}}) {
    const CycleRegions first(p.layout, st, p.update, TemporalTiling{4}, walls);
    for (const long tile_y : {1L, 5L, 8L, p.layout.extent(1)}) {
      const CycleRegions fresh(p.layout, st, p.update, TemporalTiling{tile_y}, walls);
      const CycleRegions retiled(first, TemporalTiling{tile_y}, walls);
      const std::string where = "tile_y " + std::to_string(tile_y) + " wall rows " + std::to_string(walls[0]);
      ASSERT_EQ(retiled.tiles(), fresh.tiles()) << where;
      for (long i = 0; i < fresh.tiles(); ++i)
        for (int q = 0; q < 3; ++q) {
          EXPECT_EQ(retiled.tile_begin(i, q), fresh.tile_begin(i, q)) << where;
          EXPECT_EQ(retiled.tile_end(i, q), fresh.tile_end(i, q)) << where;
        }
      core::Field a1("a1", p.layout), b1("b1", p.layout), a2("a2", p.layout), b2("b2", p.layout);
      fill_random(a1, 5);
      fill_random(b1, 6);
      Kokkos::deep_copy(a2.view, a1.view);
      Kokkos::deep_copy(b2.view, b1.view);
      op.apply_steps(a1, b1, 0.01, fresh, 1, 3);
      op.apply_steps(a2, b2, 0.01, retiled, 1, 3);
      Kokkos::fence();
      EXPECT_EQ(first_difference(a1, a2), -1) << where;
      EXPECT_EQ(first_difference(b1, b2), -1) << where;
    }
  }
}

TEST(TemporalBlocking, TileCandidatesDoubleUpToTheWholeView) {
  const core::GlobalGrid g = test_grid(3, true);
  const core::Decomposition dec(g, core::ProcessGrid::create(g, {1, 1, 1}, 1));
  const core::Stencil st = core::make_builtin_stencil("7pt", g);
  const long threads = blocked_pass_threads();
  for (int k = 1; k <= 8; ++k) {
    const HaloPattern p = make_halo_pattern(dec, st, k);
    const std::vector<long> c = tile_candidates(TileBasis::of(p.layout));
    ASSERT_FALSE(c.empty()) << "k " << k;
    EXPECT_EQ(c.back(), p.layout.extent(1)) << "k " << k;
    for (size_t i = 0; i + 1 < c.size(); ++i) {
      EXPECT_EQ(c[i], (8L << i) * threads) << "k " << k << " candidate " << i;
      EXPECT_LT(c[i], c.back()) << "k " << k;
    }
    const long t = default_tile_y(TileBasis::of(p.layout));
    EXPECT_EQ(t, std::min(32 * threads, p.layout.extent(1))) << "k " << k;
  }
}

TEST(TemporalBlocking, PassRunsOnEveryHostThread) {
  // Under the openmp configuration (2 OpenMP threads per rank) the bitwise test above thus splits the
  // rows of every tile plane between two threads.
  EXPECT_EQ(blocked_pass_threads(), Kokkos::DefaultHostExecutionSpace().concurrency());
#ifdef KOKKOS_ENABLE_OPENMP
  if (const char* n = std::getenv("OMP_NUM_THREADS")) EXPECT_EQ(blocked_pass_threads(), std::atoi(n));
#endif
}

TEST(TemporalBlocking, RedundantFractionCountsTheGhostUpdates) {
  const core::GlobalGrid g = test_grid(3, true);
  const core::Decomposition dec(g, core::ProcessGrid::create(g, {1, 1, 1}, 1));
  const core::Stencil st = core::make_builtin_stencil("7pt", g);
  const HaloPattern p1 = make_halo_pattern(dec, st, 1);
  EXPECT_EQ(CycleRegions(p1.layout, st, p1.update, TemporalTiling{4}).redundant_fraction(), 0.0);
  const HaloPattern p2 = make_halo_pattern(dec, st, 2);
  // k = 2: step 1 updates the block and its 6 faces (one layer), step 2 the block.
  const double block = 18.0 * 17 * 16, faces = 2.0 * (17 * 16 + 18 * 16 + 18 * 17);
  EXPECT_DOUBLE_EQ(CycleRegions(p2.layout, st, p2.update, TemporalTiling{4}).redundant_fraction(), faces / (2 * block));
  EXPECT_EQ(CycleRegions(p2.layout, st, p2.update, TemporalTiling{0}).describe(), "off");
}

// The view indices of a region's runs, in order.
std::vector<long> region_cells(const CellRegion& r) {
  const auto start = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.start);
  const auto length = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.length);
  std::vector<long> out;
  for (size_t i = 0; i < start.extent(0); ++i)
    for (long c = 0; c < length(i); ++c) out.push_back(start(i) + c);
  std::sort(out.begin(), out.end());
  return out;
}

// A blocked cycle clipped to a box per step (the inner pass of an overlapped cycle) holds exactly the
// step's cells inside the box, for random boxes (empty and view-sized ones among them) and
// decompositions with a view halo on some sides only.
TEST(TemporalBlocking, ClippedCycleKeepsTheCellsInsideEachBox) {
  std::mt19937 gen(40);
  for (const bool periodic : {true, false}) {
    const core::GlobalGrid g = test_grid(3, periodic);
    const core::Decomposition dec(g, core::ProcessGrid::create(g, {2, 1, 2}, 4));
    for (const core::Stencil& st : stencils(g)) {
      const HaloPattern p = make_halo_pattern(dec, st, 3);
      const CycleRegions whole(p.layout, st, p.update, TemporalTiling{5});
      std::vector<core::Box> keep(3);
      for (auto& box : keep)
        for (int d = 0; d < 3; ++d) {
          const long e = p.layout.extent(d);
          box.lo[d] = std::uniform_int_distribution<long>(0, e)(gen);
          box.n[d] = std::uniform_int_distribution<long>(0, e - box.lo[d])(gen);
        }
      keep[2] = core::Box{{0, 0, 0}, {p.layout.extent(0), p.layout.extent(1), p.layout.extent(2)}};
      const CycleRegions clipped(whole, keep);
      EXPECT_EQ(clipped.tiles(), whole.tiles());
      for (int j = 1; j <= 3; ++j) {
        std::vector<long> expected;
        const long sx = p.layout.extent(0), sy = p.layout.extent(1);
        for (const long c : region_cells(whole.cells(j)))
          if (keep[j - 1].contains({c % sx, c / sx % sy, c / (sx * sy)})) expected.push_back(c);
        EXPECT_EQ(region_cells(clipped.cells(j)), expected) << st.name << " step " << j;
      }
    }
  }
}

}  // namespace
}  // namespace cartex::kernels
