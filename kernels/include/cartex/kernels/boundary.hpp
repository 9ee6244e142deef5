#pragma once
// The boundary conditions of a run's walls (boundary.* in docs/input.md; ghost cells drawn in
// docs/boundaries.md): one object that knows every face's kind and value and fills a field's ghost
// cells outside the global domain. The halo exchange never writes those cells. Each face fills them
// by its kind's rule (core/wall_kinds.hpp's rows):
//
//   fill rule   kinds               ghost cell m (0 = next to the wall)          when it is (re)computed
//   constant    Dirichlet           the wall's value                             once per field (fill_dirichlet)
//   exact       Dirichlet exact     the exact solution at the ghost's position   after every step (refresh)
//   mirror      Neumann (flux q),   from u_m, the mirror cell m inside, by       after every step (refresh)
//               Robin (a, b, g)     a (u_g + u_m) / 2 + b (u_g - u_m) / d = g,
//                                   d = (2m + 1) h (Neumann: a = 0, b = 1, g = q:
//                                   u_m + (2m + 1) h q to the bit)
//
// Order at edges and corners (ghost cells outside two or three walls), the same on every rank: the
// constant faces first, the first of them in x, y, z order deciding; then refresh() fills the
// refreshed faces x, then y, then z, each over the whole view in the other dimensions (their ghost
// cells included), so a later dimension's fill reads the cells an earlier one filled and decides.
// A temporal-blocking pass fills the same cells with the same WallFill, row by row between its
// steps, in an order that gives every cell the same writes and reads (stencil_update.cpp).
#include <array>
#include <functional>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/core/state.hpp"
#include "cartex/kernels/mode_sum.hpp"

namespace cartex::kernels {

using BoundaryFaces = std::array<std::array<core::BoundaryFace, 2>, 3>;

// Sets every ghost cell of `f` outside a constant face (fill rule constant) to that face's value (the first such
// face in x, y, z order decides for edge and corner cells). Halo cells inside the domain are left for
// the halo exchange, ghost cells of the other faces for Boundary::refresh. Call once per field.
void fill_dirichlet(core::Field& f, const core::GlobalGrid& grid, const BoundaryFaces& faces);

// The refreshed faces' fills (rules mirror and exact) of one field layout at one step: the single
// definition of a refreshed ghost cell's value, used by Boundary::refresh (whole view, Kokkos) and row
// by row by a temporal-blocking pass (host, on one thread per call). `v` is the field's data (x fastest).
struct WallFill {
  using Rule = core::WallFillRule;
  Kokkos::Array<long, 3> ext{}, first{}, past{};  // view extent; view index of global cell 0 and n
  Kokkos::Array<Rule, 6> rule{};    // [2 d + side]: kNone, kMirror or kExact (kNone for constant faces too)
  Kokkos::Array<double, 6> ha{}, hg{}, b{};  // mirror: the Robin coefficients h a, h g and b
  Kokkos::Array<double, 3> h{}, o{};
  Kokkos::Array<long, 3> g0{};      // global index of view index 0
  Kokkos::Array<long, 3> wrap{};    // n in a periodic dimension, else 0
  ModeSum mode;                     // exact faces: the solution at this step

  // Ghost cell (i, j, k) of face (d, side): mirror: from its mirror u_m by the Robin relation (left as
  // it is when the mirror lies outside the view); exact: the solution at its position, wrapped into
  // [0, n) in a periodic dimension (the owner's position: the same bits whichever rank or step fills it).
  // The mirror rule solved for the ghost, with d = (2m + 1) h:
  //   u_g = u_m (2b - a d) / (a d + 2b) + (d g) (2 / (a d + 2b)),  a d = (2m + 1)(h a), d g = (2m + 1)(h g).
  // Neumann (a = 0, b = 1, g = q): a d = 0, the factors are exactly 1, and u_g = u_m * 1 + (2m + 1)(h q)
  // * 1 is u_m + (2m + 1)(h q) to the bit (an fma of either product gives the same rounding too).
  KOKKOS_INLINE_FUNCTION void cell(double* v, int d, int side, long i, long j, long k) const {
    long c[3] = {i, j, k};
    const long at = (k * ext[1] + j) * ext[0] + i;
    if (rule[2 * d + side] == Rule::kExact) {
      double x[3];
      for (int e = 0; e < 3; ++e) {
        long g = g0[e] + c[e];
        if (wrap[e] > 0) g = ((g % wrap[e]) + wrap[e]) % wrap[e];
        x[e] = (static_cast<double>(g) + o[e]) * h[e];
      }
      v[at] = mode(x[0], x[1], x[2]);
      return;
    }
    const long m = side == 0 ? first[d] - 1 - c[d] : c[d] - past[d];  // ghost layer, 0 next to the wall
    const long mirror = side == 0 ? first[d] + m : past[d] - 1 - m;
    if (mirror < 0 || mirror >= ext[d]) return;
    const int f = 2 * d + side;
    const double layers = static_cast<double>(2 * m + 1);
    const double ad = layers * ha[f], dg = layers * hg[f];
    const double den = ad + 2.0 * b[f];
    const double keep = (2.0 * b[f] - ad) / den, gain = 2.0 / den;
    c[d] = mirror;
    v[at] = v[(c[2] * ext[1] + c[1]) * ext[0] + c[0]] * keep + dg * gain;
  }

  // Host, inside a blocked pass (stencil_update.cpp), after a step computed rows [y0, y1) of plane z:
  // the x ghosts of row (y, z) (low side, then high).
  void row_x(double* v, long y, long z) const;
  // Then the y ghost rows in [y0, y1) of plane z (low side, then high; their mirror rows lie in
  // [y0, y1) too: CycleRegions keeps them in the first and last tile), then the z ghost planes' rows
  // [y0, y1) whose values are due now: a high ghost plane z from its mirror (done at an earlier
  // stage), the low mirror ghost plane that mirrors z (its mirror is done only now), a low exact
  // ghost plane z itself.
  void rows_yz(double* v, long z, long y0, long y1) const;
};

class Boundary {
 public:
  // The equation's exact solution at a step (for Dirichlet exact faces).
  using ExactSolution = std::function<ModeSum(long step)>;

  // `exact` is needed only when a face is Dirichlet exact.
  Boundary(const core::GlobalGrid& grid, const BoundaryFaces& faces, ExactSolution exact = {});

  // True when some face's ghost cells depend on the interior (mirror) or on time (exact): the
  // stepper then refreshes them after every step and after every exchange.
  bool refreshes() const { return refreshes_; }
  // Every wall ghost cell of `f` holding the state of `step`: the constant faces, then refresh().
  void fill(core::Field& f, long step) const;
  // The mirror and exact faces' ghost cells of `f` (holding the state of `step`), x then y then z,
  // over the whole view: a ghost cell whose mirror lies outside the view is left as it is (no step
  // reads it: the view's halo is at least the stencil's reach).
  void refresh(core::Field& f, long step) const;
  // The same for every field of a state: each field's walls are the same faces (a system's fields
  // share the walls of the input).
  void fill(core::State& s, long step) const {
    for (core::Field& f : s) fill(f, step);
  }
  void refresh(core::State& s, long step) const {
    for (core::Field& f : s) refresh(f, step);
  }
  // refresh()'s fills of a field laid out as `layout` holding the state of `step`.
  WallFill wall_fill(const core::FieldLayout& layout, long step) const;
  // Rows of `layout` a blocked pass must keep in its first tile (rows [0, first)) and in its last
  // (the last `last` rows) at every step: the y ghost rows that refresh and the rows they mirror.
  std::array<long, 2> pass_rows(const core::FieldLayout& layout) const;

 private:
  core::GlobalGrid grid_;
  BoundaryFaces faces_;
  ExactSolution exact_;
  bool refreshes_ = false;
};

// The refreshed walls of the steps first .. last of a cycle run as one pass (UpdateOperator::
// apply_steps): cycle step t holds the state of run step `step_of_first` + (t - first).
class PassWalls {
 public:
  PassWalls(const Boundary& boundary, const core::FieldLayout& layout, long step_of_first, int first, int last);
  // The fills of cycle step t's field.
  const WallFill& fill(int t) const { return fills_[t - first_]; }
  // The whole view's refresh of cycle step t's field `f` (steps run one by one).
  void refresh(core::Field& f, int t) const { boundary_->refresh(f, step_of_first_ + (t - first_)); }
  void refresh(core::State& s, int t) const {
    for (core::Field& f : s) refresh(f, t);
  }

 private:
  const Boundary* boundary_;
  long step_of_first_;
  int first_;
  std::vector<WallFill> fills_;
};

// True when `faces` has a face whose fill rule is mirror or exact (Boundary::refreshes() for them).
bool faces_refresh(const BoundaryFaces& faces);

// The run's boundary: its faces, and for exact faces `exact`, the equation's exact discrete solution
// (physics::exact_solution).
Boundary make_boundary(const core::Config& cfg, Boundary::ExactSolution exact);

}  // namespace cartex::kernels
