#pragma once
// The explicit heat update out = in + coeff * L(in) on a rank's interior, for any stencil.
//
// Kernel choice: stencils with 5, 7, 9 or 27 points run a kernel whose point count is a template
// parameter (the offset loop unrolls, the x loop vectorises); any other size runs the same code with a
// runtime loop over a device table. Both add the points in the stencil's order, so their results are
// identical bit for bit.
#include <Kokkos_Core.hpp>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/cell_region.hpp"

namespace cartex {

// A stencil bound to one field layout: flattened offsets and weights, computed once.
class StencilOperator {
 public:
  // Kernel selection: automatic, or always the runtime-size kernel.
  enum class Kernel { kAuto, kGeneric };

  // Throws cartex::Error if the layout's halo is narrower than the stencil's reach.
  StencilOperator(const Stencil& stencil, const FieldLayout& layout, Kernel kernel = Kernel::kAuto);

  // Cells to update other than the whole interior (deep-halo steps, overlap), on the device.
  using Region = CellRegion;

  // out(p) = in(p) + coeff * sum_q w_q in(p + o_q) over the interior; both fields have this layout.
  void apply(const Field& in, Field& out, double coeff) const;
  // The same update over the cells of `region` (built by region()).
  void apply(const Field& in, Field& out, double coeff, const Region& region) const;
  // The device copy of `runs` (view indices of this layout), made once.
  Region region(const std::vector<LineRun>& runs) const;
  // Name of the kernel that apply() runs ("fixed<7>" or "generic").
  const char* kernel_name() const;

 private:
  template <int N>
  void run(const Field& in, Field& out, double coeff) const;
  template <int N>
  void run_region(const Field& in, Field& out, double coeff, const Region& region) const;

  Stencil stencil_;
  FieldLayout layout_;
  int fixed_points_;                   // 0: generic kernel
  Kokkos::View<long*> lin_;            // flattened offsets (device)
  Kokkos::View<double*> weights_;      // weights (device)
  std::vector<long> lin_host_;
};

}  // namespace cartex
