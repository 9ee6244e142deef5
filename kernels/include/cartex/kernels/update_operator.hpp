#pragma once
// What one time step applies: the state `out` from the state `in` (core/state.hpp: the equation's
// fields) over the interior or over a region. The apps' time loop and halo schedule only see this
// interface, so an update can be the linear stencil operator (heat: explicit Euler; wave: leapfrog),
// a user's point-update functor (point_update.hpp), both of one field (FieldUpdate), or a system's
// update of several fields at once (Gray–Scott: u and v).
#include <Kokkos_Core.hpp>

#include <memory>
#include <string>

#include "cartex/core/field.hpp"
#include "cartex/core/state.hpp"
#include "cartex/kernels/cell_region.hpp"
#include "cartex/kernels/cycle_regions.hpp"

namespace cartex::kernels {

class UpdateOperator {
 public:
  virtual ~UpdateOperator() = default;
  // out on the interior of the layout the operator was built for; reads `in` within the stencil's
  // reach (its halo must be current) and, for multi-level schemes, out's old values.
  virtual void apply(const core::State& in, core::State& out) const = 0;
  // The same on the cells of `cells` (built for the same layout).
  virtual void apply(const core::State& in, core::State& out, const CellRegion& cells) const = 0;
  // The same, launched on `exec` (an instance besides the default one): may return before the work
  // is done, so work on the default instance (the halo exchange's kernels) can run beside it; the
  // caller fences `exec` before reading `out`. This default ignores `exec`: apply(in, out, cells),
  // then a fence, so an update that does not override it works everywhere, synchronously. Its own
  // name, not an overload of apply: an override of apply would hide an overload from callers.
  virtual void apply_async(const Kokkos::DefaultExecutionSpace& exec, const core::State& in, core::State& out,
                           const CellRegion& cells) const;
  // Returns when the work apply_async launched on `exec` is done (`out` may be read then). This
  // default fences `exec`; an update that runs apply_async's work elsewhere waits for it here.
  virtual void wait_async(const Kokkos::DefaultExecutionSpace& exec) const { exec.fence(); }
  // Steps first .. last of a cycle: step t reads states[(t - first) % 2] and writes the other, with
  // states = {a, b}, over steps.cells(t); the same bits as that many apply() calls; `between` runs
  // between tiles (BetweenTiles); with `walls`, each step's refreshed wall ghost cells are filled as
  // Boundary::refresh would after it; `ghosts` says what the periodic ghosts of the block hold
  // after the last step (PeriodicGhosts). This default runs the steps one after the other, `between`
  // after each, then fill_periodic_x (and _y) if asked; an update with a blocked kernel overrides it.
  virtual void apply_steps(core::State& a, core::State& b, const CycleRegions& steps, int first, int last,
                           const BetweenTiles& between = {}, const PassWalls* walls = nullptr,
                           PeriodicGhosts ghosts = PeriodicGhosts::kAsComputed) const;
  // True if apply_steps has a blocked kernel (one pass over memory for several steps).
  virtual bool has_blocked_kernel() const { return false; }
  // What runs, for the summary (e.g. "star<3,1>", "point update varcoef").
  virtual std::string kernel_name() const = 0;
};

// The update of an equation of one field (heat, wave, advection-diffusion, a registered point
// update): the state's one field, through the same calls on fields. A state of several fields is
// refused (core::Error).
class FieldUpdate : public UpdateOperator {
 public:
  virtual void apply(const core::Field& in, core::Field& out) const = 0;
  virtual void apply(const core::Field& in, core::Field& out, const CellRegion& cells) const = 0;
  virtual void apply_async(const Kokkos::DefaultExecutionSpace&, const core::Field& in, core::Field& out,
                           const CellRegion& cells) const {
    apply(in, out, cells);
    Kokkos::fence();
  }
  virtual void apply_steps(core::Field& a, core::Field& b, const CycleRegions& steps, int first, int last,
                           const BetweenTiles& between, const PassWalls* walls, PeriodicGhosts ghosts) const;

  void apply(const core::State& in, core::State& out) const final { apply(one(in), one(out)); }
  void apply(const core::State& in, core::State& out, const CellRegion& cells) const final { apply(one(in), one(out), cells); }
  void apply_async(const Kokkos::DefaultExecutionSpace& exec, const core::State& in, core::State& out,
                   const CellRegion& cells) const final {
    apply_async(exec, one(in), one(out), cells);
  }
  void apply_steps(core::State& a, core::State& b, const CycleRegions& steps, int first, int last, const BetweenTiles& between = {},
                   const PassWalls* walls = nullptr, PeriodicGhosts ghosts = PeriodicGhosts::kAsComputed) const final {
    apply_steps(one(a), one(b), steps, first, last, between, walls, ghosts);
  }

 private:
  static const core::Field& one(const core::State& s) {
    core::require(s.size() == 1, "FieldUpdate: an update of one field given a state of several");
    return s[0];
  }
  static core::Field& one(core::State& s) {
    core::require(s.size() == 1, "FieldUpdate: an update of one field given a state of several");
    return s[0];
  }
};

// Steps first .. last of a cycle one after the other (UpdateOperator::apply_steps' meaning).
void apply_steps_one_by_one(const UpdateOperator& op, core::State& a, core::State& b, const CycleRegions& steps, int first, int last,
                            const BetweenTiles& between, const PassWalls* walls, PeriodicGhosts ghosts);

inline void UpdateOperator::apply_async(const Kokkos::DefaultExecutionSpace&, const core::State& in, core::State& out,
                                        const CellRegion& cells) const {
  apply(in, out, cells);
  Kokkos::fence();
}

inline void UpdateOperator::apply_steps(core::State& a, core::State& b, const CycleRegions& steps, int first, int last,
                                        const BetweenTiles& between, const PassWalls* walls, PeriodicGhosts ghosts) const {
  apply_steps_one_by_one(*this, a, b, steps, first, last, between, walls, ghosts);
}

inline void FieldUpdate::apply_steps(core::Field& a, core::Field& b, const CycleRegions& steps, int first, int last,
                                     const BetweenTiles& between, const PassWalls* walls, PeriodicGhosts ghosts) const {
  core::State sa(a), sb(b);
  apply_steps_one_by_one(*this, sa, sb, steps, first, last, between, walls, ghosts);
}

}  // namespace cartex::kernels
