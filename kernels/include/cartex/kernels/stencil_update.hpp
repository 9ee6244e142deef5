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

// The time scheme a StencilOperator applies, with acc = sum_q w_q in(p + o_q):
//   kEuler      out(p) = in(p) + coeff * acc                    (heat: coeff = dt * alpha)
//   kLeapfrog   out(p) = (2 * in(p) - out(p)) + coeff * acc     (wave: coeff = dt^2 * c^2; out holds
//                                                                u^(n-1) on entry, u^(n+1) on exit)
enum class Scheme { kEuler, kLeapfrog };

// A stencil bound to one field layout: flattened offsets and weights, computed once.
class StencilOperator {
 public:
  // Kernel selection: automatic, or always the runtime-size kernel.
  enum class Kernel { kAuto, kGeneric };

  // Throws cartex::Error if the layout's halo is narrower than the stencil's reach.
  StencilOperator(const Stencil& stencil, const FieldLayout& layout, Kernel kernel = Kernel::kAuto,
                  Scheme scheme = Scheme::kEuler);

  // Cells to update other than the whole interior (deep-halo steps, overlap), on the device.
  using Region = CellRegion;

  // The scheme's update of out over the interior; both fields have this layout.
  void apply(const Field& in, Field& out, double coeff) const;
  // The same update over the cells of `region` (built by region()).
  void apply(const Field& in, Field& out, double coeff, const Region& region) const;
  // The device copy of `runs` (view indices of this layout), made once.
  Region region(const std::vector<LineRun>& runs) const;
  // Name of the kernel that apply() runs ("fixed<7>" or "generic").
  const char* kernel_name() const;

 private:
  template <int N, Scheme S>
  void run(const Field& in, Field& out, double coeff) const;
  template <int N, Scheme S>
  void run_region(const Field& in, Field& out, double coeff, const Region& region) const;
  // Calls f(std::integral_constant<int, N>, std::integral_constant<Scheme, S>) for this operator.
  template <class F>
  void dispatch(F&& f) const;

  Stencil stencil_;
  FieldLayout layout_;
  int fixed_points_;                   // 0: generic kernel
  Scheme scheme_;
  Kokkos::View<long*> lin_;            // flattened offsets (device)
  Kokkos::View<double*> weights_;      // weights (device)
  std::vector<long> lin_host_;
};

}  // namespace cartex
