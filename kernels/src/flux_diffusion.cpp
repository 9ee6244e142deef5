#include "cartex/kernels/flux_diffusion.hpp"

#include "cartex/core/error.hpp"

namespace cartex::kernels {

namespace {

FluxDiffusionRule make_rule(const core::Field& alpha, const core::FieldLayout& layout, const core::GlobalGrid& grid, double dt) {
  core::require(alpha.layout.box == layout.box && alpha.layout.halo.lo == layout.halo.lo && alpha.layout.halo.hi == layout.halo.hi,
                "FluxDiffusionUpdate: alpha's layout differs from u's");
  FluxDiffusionRule r;
  r.alpha = alpha.view;
  r.dt = dt;
  for (int d = 0; d < grid.dim; ++d) {
    core::require(layout.halo.lo[d] >= 1 && layout.halo.hi[d] >= 1, "FluxDiffusionUpdate: a halo of at least 1 cell is needed");
    r.inv_h2[d] = 1.0 / (grid.spacing(d) * grid.spacing(d));
  }
  return r;
}

}  // namespace

FluxDiffusionUpdate::FluxDiffusionUpdate(const core::Field& alpha, const core::FieldLayout& layout, const core::GlobalGrid& grid,
                                         double dt)
    : impl_(make_rule(alpha, layout, grid, dt), layout, grid, "flux-form div(alpha grad u)") {}

}  // namespace cartex::kernels
