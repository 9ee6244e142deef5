#pragma once
// Named point updates a user's program registers before it runs an app (cartex::app::app_main):
// `stencil: NAME` in the input then runs the registered update instead of the linear stencil update.
//
//   struct VarCoef { ... KOKKOS_FUNCTION double operator()(const cartex::kernels::PointContext& c) const; };
//   cartex::kernels::register_point_update<VarCoef>(
//       "varcoef", [](const cartex::core::GlobalGrid& g) { return footprint_stencil(g); },
//       [](const cartex::core::Config& cfg) { return VarCoef{cfg.dt * core::physics_number(cfg, "alpha"), ...}; }, "variable diffusivity");
//
// The footprint is registered as a stencil of the same name (stencil_registry.hpp): its offsets give
// the halo and the process neighborhood, its weights the time-step limit (docs/stencils.md).
// Registration is not thread-safe: register in main() before running.
#include <functional>
#include <memory>
#include <string>

#include "cartex/core/config.hpp"
#include "cartex/core/stencil_registry.hpp"
#include "cartex/kernels/point_update.hpp"
#include "cartex/kernels/update_operator.hpp"

namespace cartex::kernels {

// Builds the update of a run for its configuration and this rank's field layout.
using UpdateFactory = std::function<std::unique_ptr<UpdateOperator>(const core::Config& cfg, const core::FieldLayout& layout)>;

// Registers `make` and the stencil `footprint` under `name`; throws std::invalid_argument if the
// name is taken (by a builtin or registered stencil, or another update).
void register_update(const std::string& name, core::StencilFactory footprint, UpdateFactory make, const std::string& description);

// The registered update of `name`, or nullptr.
const UpdateFactory* find_update(const std::string& name);

// register_update for a point-update functor F built from the run's configuration.
template <class F>
void register_point_update(const std::string& name, core::StencilFactory footprint, std::function<F(const core::Config&)> make_functor,
                           const std::string& description) {
  register_update(
      name, std::move(footprint),
      [name, make_functor](const core::Config& cfg, const core::FieldLayout& layout) -> std::unique_ptr<UpdateOperator> {
        return std::make_unique<PointUpdate<F>>(make_functor(cfg), layout, cfg.grid, name);
      },
      description);
}

}  // namespace cartex::kernels
