#pragma once
// The linear stencil update of a rank's interior (or of a CellRegion), for any stencil:
//   heat (explicit Euler)   out = in + coeff * L(in)
//   wave (leapfrog)         out = (2 in - out) + coeff * L(in)
//
// Evaluation order. Floating-point sums depend on their order, so every kernel evaluates
// acc = L(in)(p) = sum_q w_q in(p + o_q) in one canonical order that depends on the stencil only
// (never on the field's size, decomposition or the kernel):
//   1. Points are grouped by weight (exact equality); groups in the order in which their weight first
//      appears in the stencil.
//   2. Within a group, points are split by their x offset dx ("parts", ascending dx). The points of a
//      part form a column: their (dy, dz) lines in stencil order, summed left to right at x + dx.
//   3. A group's sum G is the left-to-right sum of its parts; acc = w_0 G_0 + w_1 G_1 + ... left to
//      right (acc starts as w_0 G_0, not 0 + w_0 G_0).
//   4. out = in + coeff * acc (heat) or out = (2 * in - out_old) + coeff * acc (leapfrog).
// Every operation is a separately rounded IEEE multiply or add (the build disables contraction to
// fused multiply-add on the host), vector lanes included; device compilers that contract by default
// (nvcc --fmad=true) may break the bitwise equality there. Examples, h the spacing:
//   7pt, equal spacing:    acc = (-6/h^2) u + (1/h^2) ((u[-x] + (((u[-y] + u[+y]) + u[-z]) + u[+z])) + u[+x])
//   7pt, hx, hy, hz differ: acc = ((w0 u + wx (u[-x] + u[+x])) + wy (u[-y] + u[+y])) + wz (u[-z] + u[+z])
//   star radius r, equal spacing: w0 u + sum over k = 1..r of w_k ((u[-kx] + C_k) + u[+kx]),
//     C_k = ((u[-ky] + u[+ky]) + u[-kz]) + u[+kz]
//   27pt: groups corners, edges, faces, centre (first appearances in (dz, dy, dx) order), with
//     m1(x) = ((u(x,0,-1) + u(x,-1,0)) + u(x,1,0)) + u(x,0,1), m2(x) the same over the four (±1, ±1):
//     acc = ((wc (m2(-1) + m2(1)) + we ((m1(-1) + m2(0)) + m1(1))) + wf ((u(-1) + m1(0)) + u(1))) + w0 u
//   so the 27pt kernel sums m1 and m2 once per x position and reuses them: 15 adds and 5 multiplies
//   per cell, where adding the 27 points in stencil order takes 27 and 28.
//
// Kernels. StencilOperator recognizes, from the offsets in order and the plan's structure, stars of
// radius 1..4 in 2D and 3D (the centre, then per dimension x, y(, z) and k = 1..r the offsets -k, +k;
// 5pt and 7pt are radius 1) with any pattern of equal spacings, and the 3x3 and 3x3x3 boxes in
// (dz, dy, dx) loop order (9pt, 27pt) with weights by the number of non-zero offset components.
// Those run a kernel with the offsets fixed at compile time ("star<3,4>", "star<3,1,x|yz>" when only
// y and z share a spacing, "box27"); anything else runs the generic kernel, which evaluates the same
// order from tables. Specialized and generic results are identical bit for bit.
//
// On the host the kernels sweep each run along x in order with explicit vectors (AVX-512, AVX or
// portable; kernels/src/host_simd.hpp), storing whole vectors on aligned addresses and prefetching
// the line that comes next from memory; the 9pt/27pt column sums slide along x in registers
// (docs/performance.md). On devices each thread evaluates one cell.
#include <Kokkos_Core.hpp>

#include <memory>

#include "cartex/core/field.hpp"
#include "cartex/core/stability.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/cell_region.hpp"
#include "cartex/kernels/cycle_regions.hpp"

namespace cartex::kernels {

// The integrator (core::Integrator) a StencilOperator applies, with acc = sum_q w_q in(p + o_q) in
// the order above:
//   kExplicitEuler  out(p) = in(p) + coeff * acc                    (heat: coeff = dt * alpha)
//   kLeapfrog       out(p) = (2 * in(p) - out(p)) + coeff * acc     (wave: coeff = dt^2 * c^2; out
//                                                                    holds u^(n-1) on entry, u^(n+1) on exit)

// A stencil bound to one field layout: the plan, the kernel and its tables, built once.
class StencilOperator {
 public:
  // Kernel selection: automatic (specialized where the shape has one), or always the generic kernel.
  enum class Kernel { kAuto, kGeneric };

  // Throws cartex::core::Error if the layout's halo is narrower than the stencil's reach.
  StencilOperator(const core::Stencil& stencil, const core::FieldLayout& layout, Kernel kernel = Kernel::kAuto,
                  core::Integrator scheme = core::Integrator::kExplicitEuler);

  // The scheme's update of out over the interior; both fields have this layout.
  void apply(const core::Field& in, core::Field& out, double coeff) const;
  // The same update over the cells of `cells` (make_cell_region of this layout), launched on `exec`
  // (the default instance unless given; on a device it returns before the work is done).
  void apply(const core::Field& in, core::Field& out, double coeff, const CellRegion& cells,
             const Kokkos::DefaultExecutionSpace& exec = Kokkos::DefaultExecutionSpace()) const;
  // Steps first .. last of a cycle (UpdateOperator::apply_steps): on the host, when steps is tiled,
  // in one pass of skewed tiles (cycle_regions.hpp); otherwise one region sweep per step. `between`
  // runs between tiles (one launch per tile then) or steps; `walls`: the refreshed walls' ghost cells
  // between the steps (inside the pass when tiled); `ghosts`: PeriodicGhosts (the pass fills each
  // row's right after its last step computed it, a plane's y ghost rows after its last tile).
  void apply_steps(core::Field& a, core::Field& b, double coeff, const CycleRegions& steps, int first, int last,
                   const BetweenTiles& between = {}, const PassWalls* walls = nullptr,
                   PeriodicGhosts ghosts = PeriodicGhosts::kAsComputed) const;
  // The kernel that apply() runs: "star<D,r>" (and spacing classes), "box9", "box27" or "generic".
  const char* kernel_name() const;

  struct Impl;

 private:
  std::shared_ptr<const Impl> impl_;
};

}  // namespace cartex::kernels
