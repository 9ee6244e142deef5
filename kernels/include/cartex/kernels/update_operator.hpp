#pragma once
// What one time step applies: `out` from `in` over the interior or over a region. The apps' time
// loop and halo schedule only see this interface, so an update can be the linear stencil operator
// (heat: explicit Euler; wave: leapfrog) or a user's point-update functor (point_update.hpp).
#include <memory>
#include <string>

#include "cartex/core/field.hpp"
#include "cartex/kernels/cell_region.hpp"

namespace cartex::kernels {

class UpdateOperator {
 public:
  virtual ~UpdateOperator() = default;
  // out on the interior of the layout the operator was built for; reads `in` within the stencil's
  // reach (its halo must be current) and, for multi-level schemes, out's old values.
  virtual void apply(const Field& in, Field& out) const = 0;
  // The same on the cells of `cells` (built for the same layout).
  virtual void apply(const Field& in, Field& out, const CellRegion& cells) const = 0;
  // What runs, for the summary (e.g. "star<3,1>", "point update varcoef").
  virtual std::string kernel_name() const = 0;
};

}  // namespace cartex::kernels
