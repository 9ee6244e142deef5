// The self copy given x ghosts the caller filled (HaloPlan::expect_filled_x_ghosts, staging/
// self_copy.hpp): on random grids with x periodic on one process (2D and 3D, star, box, upwind and
// one-sided stencils, radius 1-3, k 1-3, the other dimensions split or not, periodic or walled,
// views deeper than the halo), when every x ghost of every block row holds its periodic image,
// p2p and p2p_persistent told so fill every other cell of the exact halo with its owner's value;
// the word holds for one start only and the plan really leaves those cells alone (poisoned, they
// stay poisoned until an exchange without it); plans where the rule fails do not take it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <optional>
#include <random>

#include "cartex/halo/backends.hpp"
#include "exchange_check.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

struct Built {
  core::Decomposition dec;
  HaloGeometry geo;
  HaloPattern pattern;
};

// x on one process, the others as MPI_Dims_create splits them; `extra` more view halo cells.
Built setup(const test::Case& c, int extra) {
  const core::GlobalGrid g = c.grid();
  const core::Decomposition dec(g, core::ProcessGrid::create(g, {1, 0, 0}, test::world_size()));
  HaloGeometry geo(dec, c.stencil(), c.k);
  core::HaloWidths view = geo.widths();
  for (int d = 0; d < g.dim; ++d) view.lo[d] += extra, view.hi[d] += extra;
  HaloPattern pattern = make_halo_pattern(geo, test::world_rank(), view);
  return {dec, std::move(geo), std::move(pattern)};
}

test::Case random_case(std::mt19937& rng) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const char* shapes[] = {"star", "box", "upwind", "down"};
  test::Case c;
  c.dim = pick(2, 3);
  c.shape = shapes[pick(0, 3)];
  c.radius = pick(1, c.shape == std::string("box") ? 2 : 3);
  c.k = pick(1, c.radius > 2 ? 2 : 3);
  const int w = c.radius * c.k;
  c.periodic = {true, pick(0, 1) == 1, c.dim == 2 || pick(0, 1) == 1};
  c.n = {1, 1, 1};
  c.n[0] = pick(w + 2, w + 8);  // at least the x halo even 2 cells deeper
  for (int d = 1; d < c.dim; ++d) c.n[d] = static_cast<long>(test::world_size()) * pick(w, w + 2) + pick(0, 3);
  return c;
}

// The x ghosts of every block row set to `value`, or to their periodic images (none).
void set_x_ghosts(const core::FieldLayout& L, const core::FieldView::HostMirror& h, std::optional<double> value = std::nullopt) {
  const long lo = L.halo.lo[0], n = L.box.n[0];
  for (long z = L.halo.lo[2]; z < L.halo.lo[2] + L.box.n[2]; ++z)
    for (long y = L.halo.lo[1]; y < L.halo.lo[1] + L.box.n[1]; ++y)
      for (long x = 0; x < L.extent(0); ++x)
        if (x < lo || x >= lo + n) h(z, y, x) = value ? *value : h(z, y, x < lo ? x + n : x - n);
}

TEST(FilledXGhosts, RandomCasesFillTheRestOfTheExactHalo) {
  const unsigned seed = 20261130;
  std::mt19937 rng(seed);
  for (int i = 0; i < 40; ++i) {
    const test::Case c = random_case(rng);
    const int extra = i % 3 == 0 ? 2 : 0;
    const Built s = setup(c, extra);
    const core::FieldLayout& L = s.pattern.layout;
    for (const char* backend : {"p2p", "p2p_persistent"}) {
      const std::string what = std::string("seed ") + std::to_string(seed) + " case " + std::to_string(i) + " " + c.describe() +
                               " view halo " + std::to_string(extra) + " deeper";
      auto plan = make_halo_plan(backend, {s.pattern, MPI_COMM_WORLD, &s.geo});
      ASSERT_TRUE(plan->skips_filled_x_ghosts()) << backend << " " << what;
      core::Field f("f", L);
      auto h = Kokkos::create_mirror_view(f.view);
      test::fill_encoded(c, L, h);
      set_x_ghosts(L, h);
      Kokkos::deep_copy(f.view, h);
      plan->expect_filled_x_ghosts();
      plan->exchange(f);
      Kokkos::deep_copy(h, f.view);
      // The filled x ghosts beyond the exact halo are correct copies outside it: the "p2p" check
      // accepts those (and nothing else outside).
      EXPECT_EQ(test::wrong_cells(c, L, h, "p2p", std::string(backend) + " " + what), 0);
    }
  }
}

TEST(FilledXGhosts, TheWordHoldsForOneStartAndTheCellsAreLeftAlone) {
  test::Case c{3, {9, 0, 0}, {true, true, true}, "star", 1, 2};
  c.n[1] = 4L * test::world_size() + 1;
  c.n[2] = 5;
  const Built s = setup(c, 0);
  const core::FieldLayout& L = s.pattern.layout;
  const long ghosts = (L.halo.lo[0] + L.halo.hi[0]) * L.box.n[1] * L.box.n[2];
  for (const char* backend : {"p2p", "p2p_persistent"}) {
    auto plan = make_halo_plan(backend, {s.pattern, MPI_COMM_WORLD, &s.geo});
    core::Field f("f", L);
    auto h = Kokkos::create_mirror_view(f.view);
    test::fill_encoded(c, L, h);
    set_x_ghosts(L, h, -7.0);  // the caller's word is false here: the plan must not look
    Kokkos::deep_copy(f.view, h);
    plan->expect_filled_x_ghosts();
    plan->exchange(f);
    Kokkos::deep_copy(h, f.view);
    long poisoned = 0;
    for (size_t i = 0; i < h.size(); ++i) poisoned += h.data()[i] == -7.0;
    // The block rows' x ghosts, and those of the ghost rows this rank copies from them (where y or z
    // is on one process too).
    EXPECT_GE(poisoned, ghosts) << backend;
    plan->exchange(f);  // no word: every halo cell from the block again
    Kokkos::deep_copy(h, f.view);
    EXPECT_EQ(test::wrong_cells(c, L, h, backend, "after an exchange without the word"), 0) << backend;
  }
}

TEST(FilledXGhosts, NotTakenWhereTheRuleFails) {
  test::Case c{3, {6, 0, 0}, {false, true, true}, "star", 1, 2};
  c.n[1] = 4L * test::world_size();
  c.n[2] = 6;
  const Built walls = setup(c, 0);  // walls in x
  EXPECT_FALSE(make_halo_plan("p2p", {walls.pattern, MPI_COMM_WORLD, &walls.geo})->skips_filled_x_ghosts());
  c.periodic[0] = true;
  c.n[0] = 3;  // narrower than a view halo of 2 + 2 cells: a ghost's image is another ghost
  const Built narrow = setup(c, 2);
  EXPECT_FALSE(make_halo_plan("p2p", {narrow.pattern, MPI_COMM_WORLD, &narrow.geo})->skips_filled_x_ghosts());
  c.n[0] = 6;
  const Built wide = setup(c, 0);
  EXPECT_FALSE(make_halo_plan("cart_combining", {wide.pattern, MPI_COMM_WORLD, &wide.geo})->skips_filled_x_ghosts());
  EXPECT_TRUE(make_halo_plan("p2p", {wide.pattern, MPI_COMM_WORLD, &wide.geo})->skips_filled_x_ghosts());
}

}  // namespace
}  // namespace cartex
