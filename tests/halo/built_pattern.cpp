#include "built_pattern.hpp"

#include <string>

#include "mpi_world.hpp"

namespace cartex::test {

BuiltPattern build_pattern(const Case& c, std::array<int, 3> procs, int extra) {
  const core::GlobalGrid g = c.grid();
  const core::Decomposition dec(g, core::ProcessGrid::create(g, procs, world_size()));
  halo::HaloGeometry geo(dec, c.stencil(), c.k);
  core::HaloWidths view = geo.widths();
  for (int d = 0; d < g.dim; ++d) view.lo[d] += extra, view.hi[d] += extra;
  halo::HaloPattern pattern = halo::make_halo_pattern(geo, world_rank(), view);
  return {dec, std::move(geo), std::move(pattern)};
}

void pick_random_stencil(Case& c, std::mt19937& rng) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const char* shapes[] = {"star", "box", "upwind", "down", "skew"};
  c.dim = pick(2, 3);
  c.shape = shapes[pick(0, 4)];
  c.radius = pick(1, c.shape == std::string("box") ? 2 : 3);
  c.k = pick(1, c.radius > 2 ? 2 : 3);
}

}  // namespace cartex::test
