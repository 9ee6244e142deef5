#pragma once
// The linear stencil operator L of a Stencil as a time step (UpdateOperator), by integrator:
//   heat, explicit Euler   out = in + coeff * L(in)               coeff = dt * alpha
//   wave, leapfrog         out = (2 in - out) + coeff * L(in)     coeff = dt^2 * c^2
// StencilOperator picks the kernel (specialized or generic); this adds the coefficient.
#include <string>

#include "cartex/kernels/stencil_update.hpp"
#include "cartex/kernels/update_operator.hpp"

namespace cartex::kernels {

class LinearUpdate final : public FieldUpdate {
 public:
  LinearUpdate(const core::Stencil& stencil, const core::FieldLayout& layout, core::Integrator scheme, double coeff)
      : op_(stencil, layout, StencilOperator::Kernel::kAuto, scheme), coeff_(coeff) {}

  void apply(const core::Field& in, core::Field& out) const override { op_.apply(in, out, coeff_); }
  void apply(const core::Field& in, core::Field& out, const CellRegion& cells) const override { op_.apply(in, out, coeff_, cells); }
  void apply_async(const Kokkos::DefaultExecutionSpace& exec, const core::Field& in, core::Field& out,
                   const CellRegion& cells) const override {
    op_.apply(in, out, coeff_, cells, exec);
  }
  void apply_steps(core::Field& a, core::Field& b, const CycleRegions& steps, int first, int last,
                   const BetweenTiles& between = {}, const PassWalls* walls = nullptr,
                   PeriodicGhosts ghosts = PeriodicGhosts::kAsComputed) const override {
    op_.apply_steps(a, b, coeff_, steps, first, last, between, walls, ghosts);
  }
  bool has_blocked_kernel() const override { return true; }
  std::string kernel_name() const override { return op_.kernel_name(); }

 private:
  StencilOperator op_;
  double coeff_;
};

}  // namespace cartex::kernels
