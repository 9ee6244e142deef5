// Halo exchange, every backend: after one exchange every cell of the exact halo (B + S^k minus B)
// holds its owner's value, the block is unchanged, and no other cell holds a wrong value (only
// cart_forwarding and p2p's whole planes may leave correct copies outside the exact halo). The field
// encodes the global cell index, so a wrong source, a shifted cell or a swapped direction shows up as
// a wrong number. Star and box stencils of radius 1-4, k = 1-3, 2D and 3D, periodic / walls / mixed,
// uneven blocks and blocks thinner than the halo; also with the pattern laid out in a view with a
// deeper halo than its geometry's (halo.steps_per_exchange: auto runs every k on fields laid out for
// the deepest), where the cells beyond the geometry's halo stay untouched (or, for p2p's planes,
// hold correct copies).
#include <gtest/gtest.h>

#include "cartex/halo/backends.hpp"
#include "exchange_check.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

TEST(HaloExchange, EveryBackendFillsTheExactHaloWithOwnersValues) {
  const int size = test::world_size();
  for (const auto& c : test::exchange_cases(size))
    for (const Backend& backend : backends())
      for (const int extra : {0, 2}) {
        if (!halo::runs_here(backend)) continue;
        const long wrong = test::wrong_cells_after_exchange(c, backend.name, extra);
        EXPECT_EQ(wrong, 0) << backend.name << " " << c.describe() << " view halo " << extra << " deeper than the geometry's";
      }
}

}  // namespace
}  // namespace cartex
