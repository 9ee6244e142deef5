#pragma once
// The boundary conditions of a run's walls (boundary.* in docs/input.md; ghost cells drawn in
// docs/boundaries.md): one object that knows every face's kind and value and fills a field's ghost
// cells outside the global domain. The halo exchange never writes those cells.
//
//   face kind           ghost cell m (0 = next to the wall)          when it is (re)computed
//   Dirichlet constant  the wall's value                             once per field (fill_fixed)
//   Dirichlet exact     the exact solution at the ghost's position   after every step (refresh)
//   Neumann, flux q     u(mirror cell m inside) + (2m + 1) h q       after every step (refresh)
//
// Order at edges and corners (ghost cells outside two or three walls), the same on every rank: the
// constant faces first, the first of them in x, y, z order deciding; then refresh() fills the
// refreshed faces x, then y, then z, each over the whole view in the other dimensions (their ghost
// cells included), so a later dimension's fill reads the cells an earlier one filled and decides.
#include <array>
#include <functional>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/kernels/mode_sum.hpp"

namespace cartex::kernels {

using BoundaryFaces = std::array<std::array<core::BoundaryFace, 2>, 3>;

// Sets every ghost cell of `f` outside a constant Dirichlet face to that face's value (the first such
// face in x, y, z order decides for edge and corner cells). Halo cells inside the domain are left for
// the halo exchange, ghost cells of the other faces for Boundary::refresh. Call once per field.
void fill_dirichlet(core::Field& f, const core::GlobalGrid& grid, const BoundaryFaces& faces);

class Boundary {
 public:
  // The equation's exact solution at a step (for Dirichlet exact faces).
  using ExactSolution = std::function<ModeSum(long step)>;

  // `exact` is needed only when a face is Dirichlet exact.
  Boundary(const core::GlobalGrid& grid, const BoundaryFaces& faces, ExactSolution exact = {});

  // True when some face's ghost cells depend on the interior (Neumann) or on time (exact): the
  // stepper then refreshes them after every step and after every exchange.
  bool refreshes() const { return refreshes_; }
  // Every wall ghost cell of `f` holding the state of `step`: the constant faces, then refresh().
  void fill(core::Field& f, long step) const;
  // The Neumann and exact faces' ghost cells of `f` (holding the state of `step`), x then y then z,
  // over the whole view: a ghost cell whose mirror lies outside the view is left as it is (no step
  // reads it: the view's halo is at least the stencil's reach).
  void refresh(core::Field& f, long step) const;

 private:
  core::GlobalGrid grid_;
  BoundaryFaces faces_;
  ExactSolution exact_;
  bool refreshes_ = false;
};

// True when `faces` has a Neumann or Dirichlet exact face (Boundary::refreshes() for them).
bool faces_refresh(const BoundaryFaces& faces);

// The run's boundary: its faces, and for exact faces `exact`, the equation's exact discrete solution
// (physics::exact_solution).
Boundary make_boundary(const core::Config& cfg, Boundary::ExactSolution exact);

}  // namespace cartex::kernels
