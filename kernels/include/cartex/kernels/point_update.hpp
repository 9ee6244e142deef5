#pragma once
// A user's point update as an UpdateOperator: any (non-linear, variable-coefficient, ...) rule
// u'(p) = f(u near p, global index of p), with the halo taken from a declared footprint stencil.
//
//   struct MyUpdate {
//     double dt_alpha;
//     KOKKOS_FUNCTION double operator()(const cartex::kernels::PointContext& c) const {
//       return c(0, 0, 0) + dt_alpha * (c(-1, 0, 0) + c(1, 0, 0) - 2 * c(0, 0, 0));
//     }
//   };
//   cartex::kernels::PointUpdate<MyUpdate> op(MyUpdate{0.1}, layout, grid, "my update");
//
// f must be a copyable functor callable on the device (KOKKOS_FUNCTION), reading only offsets
// within the footprint that was registered with it (register_update in update_registry.hpp).
#include <Kokkos_Core.hpp>

#include <string>
#include <utility>

#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/kernels/update_operator.hpp"

namespace cartex::kernels {

// The cell being updated: u at relative offsets, and the cell's global index.
struct PointContext {
  const double* u;   // the input field's view data
  long p;            // view index of the cell
  long sy, sz;       // view strides of y and z
  long i, j, k;      // global cell index (k = 0 in 2D), wrapped into [0, n) in periodic dimensions,
                     // so a ghost cell that a deep-halo step updates sees its owner's index

  KOKKOS_INLINE_FUNCTION double operator()(int dx, int dy, int dz = 0) const { return u[p + dx + dy * sy + dz * sz]; }
};

template <class F>
class PointUpdate final : public FieldUpdate {
 public:
  PointUpdate(F f, const core::FieldLayout& layout, const core::GlobalGrid& grid, std::string name)
      : f_(std::move(f)),
        layout_(layout),
        grid_(grid),
        name_(std::move(name)),
        interior_label_("cartex::kernels::point_update<" + name_ + ">"),
        region_label_(interior_label_ + "/region") {}

  void apply(const core::Field& in, core::Field& out) const override {
    const Geometry g = geometry();
    const F f = f_;
    const double* u = in.view.data();
    double* v = out.view.data();
    Kokkos::parallel_for(
        interior_label_, Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {g.n[2], g.n[1], g.n[0]}),
        KOKKOS_LAMBDA(const long z, const long y, const long x) {
          const long p = (z + g.off[2]) * g.sz + (y + g.off[1]) * g.sy + x + g.off[0];
          v[p] = f(PointContext{u, p, g.sy, g.sz, g.wrap(0, g.lo[0] + x), g.wrap(1, g.lo[1] + y), g.wrap(2, g.lo[2] + z)});
        });
  }

  void apply(const core::Field& in, core::Field& out, const CellRegion& cells) const override {
    apply_async(Kokkos::DefaultExecutionSpace(), in, out, cells);
  }

  // On `exec`, without a fence (UpdateOperator::apply_async).
  void apply_async(const Kokkos::DefaultExecutionSpace& exec, const core::Field& in, core::Field& out,
                   const CellRegion& cells) const override {
    const Geometry g = geometry();
    const F f = f_;
    const double* u = in.view.data();
    double* v = out.view.data();
    const auto start = cells.start;
    const auto length = cells.length;
    Kokkos::parallel_for(
        region_label_, Kokkos::RangePolicy<>(exec, 0, static_cast<long>(start.extent(0))),
        KOKKOS_LAMBDA(const long r) {
          const long p0 = start(r);
          const long z = p0 / g.sz, y = (p0 % g.sz) / g.sy, x0 = p0 % g.sy;  // view coordinates
          for (long q = 0; q < length(r); ++q) {
            const long p = p0 + q;
            v[p] = f(PointContext{u, p, g.sy, g.sz, g.wrap(0, g.lo[0] + x0 + q - g.off[0]), g.wrap(1, g.lo[1] + y - g.off[1]),
                                  g.wrap(2, g.lo[2] + z - g.off[2])});
          }
        });
  }

  std::string kernel_name() const override { return "point update " + name_; }

  // Public only because nvcc's generated registration code names the kernels' closure types, which
  // hold a Geometry: a private member type there does not compile (a CUDA limitation, not an API).
  struct Geometry {
    Kokkos::Array<long, 3> n, off, lo;
    Kokkos::Array<long, 3> period;  // grid cells in periodic dimensions, 0 in the others
    long sy, sz;

    KOKKOS_INLINE_FUNCTION long wrap(int d, long g) const {
      if (period[d] == 0) return g;
      const long r = g % period[d];
      return r < 0 ? r + period[d] : r;
    }
  };

 private:
  Geometry geometry() const {
    Geometry g{};
    for (int d = 0; d < 3; ++d) {
      g.n[d] = layout_.box.n[d];
      g.off[d] = layout_.halo.lo[d];
      g.lo[d] = layout_.box.lo[d];
      g.period[d] = grid_.periodic[d] && d < grid_.dim ? grid_.n[d] : 0;
    }
    g.sy = layout_.extent(0);
    g.sz = layout_.extent(0) * layout_.extent(1);
    return g;
  }

  F f_;
  core::FieldLayout layout_;
  core::GlobalGrid grid_;
  std::string name_;
  std::string interior_label_, region_label_;  // Kokkos kernel labels
};

}  // namespace cartex::kernels
