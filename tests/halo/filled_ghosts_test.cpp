// The self copy given periodic ghosts the caller filled (HaloPlan::expect_filled_ghosts, staging/
// self_copy.hpp): on random grids with x periodic on one process, y on one process or split (2D and
// 3D, star, box, upwind and one-sided stencils, radius 1-3, k 1-3, the other dimensions periodic or
// walled, views deeper than the halo), the plan offers x, or x and y where y is periodic on one
// process too; when the periodic ghosts of those dimensions hold their images (x: every block row's;
// y: every ghost row of every block plane, x ghosts included), p2p and p2p_persistent told so fill
// every other cell of the exact halo with its owner's value; the word holds for one start only and
// the plan really leaves those cells alone (poisoned, they stay poisoned until an exchange without
// it); plans where the rule fails do not take it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <optional>
#include <random>

#include "cartex/halo/backends.hpp"
#include "built_pattern.hpp"
#include "exchange_check.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

// x (and y, with `y_whole`) on one process, the others as MPI_Dims_create splits them; `extra` more
// view halo cells.
test::BuiltPattern setup(const test::Case& c, int extra, bool y_whole = false) {
  return test::build_pattern(c, {1, y_whole ? 1 : 0, 0}, extra);
}

test::Case random_case(std::mt19937& rng) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  test::Case c;
  test::pick_random_stencil(c, rng);
  const int w = c.radius * c.k;
  c.periodic = {true, pick(0, 1) == 1, c.dim == 2 || pick(0, 1) == 1};
  c.n = {1, 1, 1};
  c.n[0] = pick(w + 2, w + 8);  // at least the x halo even 2 cells deeper
  for (int d = 1; d < c.dim; ++d) c.n[d] = static_cast<long>(test::world_size()) * pick(w, w + 2) + pick(0, 3);
  return c;
}

// The periodic ghosts of the first `dims` of x, y (PeriodicGhosts::kX, kXY) set to `value`, or to
// their images (none): x ghosts of every block row, then (dims 2) every ghost row in y of every
// block plane, x ghosts included.
void set_filled(const core::FieldLayout& L, const core::FieldView::HostMirror& h, int dims,
                std::optional<double> value = std::nullopt) {
  const long lo = L.halo.lo[0], n = L.box.n[0], ylo = L.halo.lo[1], ny = L.box.n[1];
  for (long z = L.halo.lo[2]; z < L.halo.lo[2] + L.box.n[2]; ++z)
    for (long y = ylo; y < ylo + ny; ++y)
      for (long x = 0; x < L.extent(0); ++x)
        if (x < lo || x >= lo + n) h(z, y, x) = value ? *value : h(z, y, x < lo ? x + n : x - n);
  if (dims < 2) return;
  for (long z = L.halo.lo[2]; z < L.halo.lo[2] + L.box.n[2]; ++z)
    for (long y = 0; y < L.extent(1); ++y)
      for (long x = 0; x < L.extent(0); ++x)
        if (y < ylo || y >= ylo + ny) h(z, y, x) = value ? *value : h(z, y < ylo ? y + ny : y - ny, x);
}

// What a plan built by setup() offers: x always (these cases are wide enough), y where it is
// periodic on one process and the block at least as long as the view's y halo.
int offered(const test::Case& c, const test::BuiltPattern& b) {
  const core::FieldLayout& L = b.pattern.layout;
  const bool y = b.dec.procs().dims[1] == 1 && c.periodic[1] && L.box.n[1] >= std::max(L.halo.lo[1], L.halo.hi[1]);
  return y ? 2 : 1;
}

TEST(FilledGhosts, RandomCasesFillTheRestOfTheExactHalo) {
  const unsigned seed = 20261130;
  std::mt19937 rng(seed);
  long taken[3] = {0, 0, 0};
  for (int i = 0; i < 60; ++i) {
    const test::Case c = random_case(rng);
    const int extra = i % 3 == 0 ? 2 : 0;
    // y on one process: in 3D any time, in 2D only on one rank (the split must go somewhere)
    const bool y_whole = (c.dim == 3 || test::world_size() == 1) && i % 2 == 1;
    const test::BuiltPattern s = setup(c, extra, y_whole);
    const core::FieldLayout& L = s.pattern.layout;
    for (const char* backend : {"p2p", "p2p_persistent"}) {
      const std::string what = std::string("seed ") + std::to_string(seed) + " case " + std::to_string(i) + " " + c.describe() +
                               " view halo " + std::to_string(extra) + " deeper" + (y_whole ? ", y on one process" : "");
      auto plan = make_halo_plan(backend, {s.pattern, MPI_COMM_WORLD, &s.geo});
      ASSERT_EQ(plan->fillable_ghost_dims(), offered(c, s)) << backend << " " << what;
      for (int dims = 1; dims <= plan->fillable_ghost_dims(); ++dims) {
        core::Field f("f", L);
        auto h = Kokkos::create_mirror_view(f.view);
        test::fill_encoded(c, L, h);
        set_filled(L, h, dims);
        Kokkos::deep_copy(f.view, h);
        plan->expect_filled_ghosts(dims);
        plan->exchange(f);
        Kokkos::deep_copy(h, f.view);
        // The filled ghosts beyond the exact halo are correct copies outside it: the "p2p" check
        // accepts those (and nothing else outside).
        EXPECT_EQ(test::wrong_cells(c, L, h, "p2p", std::string(backend) + " " + what + " dims " + std::to_string(dims)), 0);
        ++taken[dims];
      }
    }
  }
  EXPECT_GT(taken[1], 0);
  EXPECT_GT(taken[2], 0);  // the random cases reach y too
}

TEST(FilledGhosts, TheWordHoldsForOneStartAndTheCellsAreLeftAlone) {
  for (const int dims : {1, 2}) {
    // a box for y: the y ghost rows' x ghosts (the corners) are in its halo, as every poisoned cell
    // must be for the exchange without the word to mend it
    test::Case c{3, {9, 0, 0}, {true, true, true}, dims == 2 ? "box" : "star", 1, 2};
    c.n[1] = dims == 2 ? 6 : 4L * test::world_size() + 1;
    c.n[2] = dims == 2 ? 4L * test::world_size() + 1 : 5;
    const test::BuiltPattern s = setup(c, 0, dims == 2);
    const core::FieldLayout& L = s.pattern.layout;
    const long ghosts = (L.halo.lo[0] + L.halo.hi[0]) * L.box.n[1] * L.box.n[2] +
                        (dims == 2 ? (L.halo.lo[1] + L.halo.hi[1]) * L.extent(0) * L.box.n[2] : 0);
    for (const char* backend : {"p2p", "p2p_persistent"}) {
      auto plan = make_halo_plan(backend, {s.pattern, MPI_COMM_WORLD, &s.geo});
      ASSERT_EQ(plan->fillable_ghost_dims(), offered(c, s)) << backend;
      ASSERT_GE(offered(c, s), dims) << backend;
      core::Field f("f", L);
      auto h = Kokkos::create_mirror_view(f.view);
      test::fill_encoded(c, L, h);
      set_filled(L, h, dims, -7.0);  // the caller's word is false here: the plan must not look
      Kokkos::deep_copy(f.view, h);
      plan->expect_filled_ghosts(dims);
      plan->exchange(f);
      Kokkos::deep_copy(h, f.view);
      long poisoned = 0;
      for (size_t i = 0; i < h.size(); ++i) poisoned += h.data()[i] == -7.0;
      // The filled ghosts, and those of the ghost planes and rows this rank copies from them.
      EXPECT_GE(poisoned, ghosts) << backend << " dims " << dims;
      plan->exchange(f);  // no word: every halo cell from the block again
      Kokkos::deep_copy(h, f.view);
      EXPECT_EQ(test::wrong_cells(c, L, h, backend, "after an exchange without the word"), 0) << backend << " dims " << dims;
    }
  }
}

TEST(FilledGhosts, NotTakenWhereTheRuleFails) {
  test::Case c{3, {6, 0, 0}, {false, true, true}, "star", 1, 2};
  c.n[1] = 4L * test::world_size();
  c.n[2] = 6;
  const test::BuiltPattern walls = setup(c, 0);  // walls in x
  EXPECT_EQ(make_halo_plan("p2p", {walls.pattern, MPI_COMM_WORLD, &walls.geo})->fillable_ghost_dims(), 0);
  c.periodic[0] = true;
  c.n[0] = 3;  // narrower than a view halo of 2 + 2 cells: a ghost's image is another ghost
  const test::BuiltPattern narrow = setup(c, 2);
  EXPECT_EQ(make_halo_plan("p2p", {narrow.pattern, MPI_COMM_WORLD, &narrow.geo})->fillable_ghost_dims(), 0);
  c.n[0] = 6;
  const test::BuiltPattern wide = setup(c, 0);
  EXPECT_EQ(make_halo_plan("cart_combining", {wide.pattern, MPI_COMM_WORLD, &wide.geo})->fillable_ghost_dims(), 0);
  EXPECT_EQ(make_halo_plan("p2p", {wide.pattern, MPI_COMM_WORLD, &wide.geo})->fillable_ghost_dims(), offered(c, wide));
  // y on one process: walled, too short for the view's y halo, or periodic and long enough
  c.n[2] = 4L * test::world_size();
  c.periodic[1] = false;
  const test::BuiltPattern y_walls = setup(c, 0, true);
  EXPECT_EQ(make_halo_plan("p2p", {y_walls.pattern, MPI_COMM_WORLD, &y_walls.geo})->fillable_ghost_dims(), 1);
  c.periodic[1] = true;
  c.n[1] = 3;
  const test::BuiltPattern y_short = setup(c, 2, true);
  EXPECT_EQ(make_halo_plan("p2p", {y_short.pattern, MPI_COMM_WORLD, &y_short.geo})->fillable_ghost_dims(), 1);
  c.n[1] = 6;
  const test::BuiltPattern y_wide = setup(c, 0, true);
  EXPECT_EQ(make_halo_plan("p2p_persistent", {y_wide.pattern, MPI_COMM_WORLD, &y_wide.geo})->fillable_ghost_dims(), 2);
}

}  // namespace
}  // namespace cartex
