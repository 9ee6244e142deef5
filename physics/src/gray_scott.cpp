// Gray–Scott reaction–diffusion (Pearson, Science 261, 1993): its row of the registry (equation.hpp).
//
//   u_t = Du L(u) - u v^2 + F (1 - u)        u: the substrate, fed at rate F
//   v_t = Dv L(v) + u v^2 - (F + k) v        v: the activator, removed at rate F + k
//
// Explicit Euler over both fields in one kernel (L: the input's stencil, any of them), so one step
// reads u and v within the stencil's reach and the halo plan moves both in one exchange:
//
//   u' = u + dt (Du L(u) - u v^2 + F (1 - u))
//   v' = v + dt (Dv L(v) + u v^2 - (F + k) v)
//
// The initial state is Pearson's trivial one, u = 1 and v = 0, with a seed of v: init's gaussian
// v = A exp(-|x - c|^2 / (2 w^2)); u stays 1 (where v is large, u v^2 outgrows (F + k) v).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <memory>
#include <string>

#include "cartex/core/error.hpp"
#include "cartex/core/stability.hpp"
#include "cartex/kernels/initial.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex::physics {

namespace gray_scott {

struct Rates {
  double dt, du, dv, feed, kill;
};

// The update of the cells at view index p (taps: the stencil's linear view offsets and weights).
struct Point {
  Kokkos::View<const long*> offsets;
  Kokkos::View<const double*> weights;
  Rates r;
  const double* u;
  const double* v;
  double* u_next;
  double* v_next;

  KOKKOS_INLINE_FUNCTION void operator()(long p) const {
    double lu = 0, lv = 0;
    for (std::size_t q = 0; q < offsets.extent(0); ++q) {
      lu += weights(q) * u[p + offsets(q)];
      lv += weights(q) * v[p + offsets(q)];
    }
    const double uu = u[p], vv = v[p];
    const double uvv = uu * vv * vv;
    u_next[p] = uu + r.dt * (r.du * lu - uvv + r.feed * (1.0 - uu));
    v_next[p] = vv + r.dt * (r.dv * lv + uvv - (r.feed + r.kill) * vv);
  }
};

// Over the interior: (z, y, x) of the block, offset by the halo.
struct Interior {
  Point point;
  long ox, oy, oz, sy, sz;
  KOKKOS_INLINE_FUNCTION void operator()(long z, long y, long x) const { point((z + oz) * sz + (y + oy) * sy + x + ox); }
};

// Over the runs of a CellRegion.
struct Runs {
  Point point;
  Kokkos::View<long*> start, length;
  KOKKOS_INLINE_FUNCTION void operator()(long r) const {
    for (long q = 0; q < length(r); ++q) point(start(r) + q);
  }
};

class Update final : public kernels::UpdateOperator {
 public:
  Update(const core::Stencil& laplacian, const core::FieldLayout& layout, Rates rates)
      : layout_(layout), rates_(rates), name_("gray-scott on " + laplacian.name) {
    const long sy = layout.extent(0), sz = layout.extent(0) * layout.extent(1);
    Kokkos::View<long*> offsets("cartex::gray_scott::offsets", laplacian.size());
    Kokkos::View<double*> weights("cartex::gray_scott::weights", laplacian.size());
    auto ho = Kokkos::create_mirror_view(offsets);
    auto hw = Kokkos::create_mirror_view(weights);
    for (int q = 0; q < laplacian.size(); ++q) {
      const auto& o = laplacian.offsets[q];
      ho(q) = o[0] + o[1] * sy + o[2] * sz;
      hw(q) = laplacian.weights[q];
    }
    Kokkos::deep_copy(offsets, ho);
    Kokkos::deep_copy(weights, hw);
    offsets_ = offsets;
    weights_ = weights;
  }

  void apply(const core::State& in, core::State& out) const override {
    const core::FieldLayout& l = layout_;
    const Interior f{point(in, out), l.halo.lo[0], l.halo.lo[1], l.halo.lo[2], l.extent(0), l.extent(0) * l.extent(1)};
    Kokkos::parallel_for("cartex::gray_scott", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {l.box.n[2], l.box.n[1], l.box.n[0]}),
                         f);
  }

  void apply(const core::State& in, core::State& out, const kernels::CellRegion& cells) const override {
    apply_async(Kokkos::DefaultExecutionSpace(), in, out, cells);
  }

  // On `exec`, without a fence (UpdateOperator::apply_async).
  void apply_async(const Kokkos::DefaultExecutionSpace& exec, const core::State& in, core::State& out,
                   const kernels::CellRegion& cells) const override {
    const Runs f{point(in, out), cells.start, cells.length};
    Kokkos::parallel_for("cartex::gray_scott/region", Kokkos::RangePolicy<>(exec, 0, static_cast<long>(cells.start.extent(0))), f);
  }

  std::string kernel_name() const override { return name_; }

 private:
  Point point(const core::State& in, core::State& out) const {
    core::require(in.size() == 2 && out.size() == 2, "gray-scott: the update of u and v given another state");
    return Point{offsets_, weights_, rates_, in[0].view.data(), in[1].view.data(), out[0].view.data(), out[1].view.data()};
  }

  core::FieldLayout layout_;
  Rates rates_;
  std::string name_;
  Kokkos::View<const long*> offsets_;
  Kokkos::View<const double*> weights_;
};

}  // namespace gray_scott

namespace {

double value(const core::PhysicsValues& v, const char* key) { return v.at(key).numbers.front(); }

// Euler's limit of the diffusion, the faster of the two (core/stability.hpp: 2 / (max(Du, Dv) rho) for
// a Laplacian); the reaction's rates (|J| <= F + k + 3 for u, v in [0, 1]) are far below it at the
// usual parameters, and the cfl keeps a margin.
core::TimeStepLimit dt_max(const core::Stencil& stencil, const core::PhysicsValues& v) {
  return core::time_step_limit(stencil, core::Integrator::kExplicitEuler, std::max(value(v, "Du"), value(v, "Dv")));
}

std::unique_ptr<kernels::UpdateOperator> make_update(const core::Config& cfg, const core::FieldLayout& layout, const CoefficientFields&) {
  const gray_scott::Rates r{cfg.dt, value(cfg.physics, "Du"), value(cfg.physics, "Dv"), value(cfg.physics, "feed"),
                            value(cfg.physics, "kill")};
  return std::make_unique<gray_scott::Update>(cfg.stencil, layout, r);
}

// v = init's gaussian, u = 1 (the halo too: exchanges and walls overwrite it).
void fill_initial(const core::Config& cfg, core::State& state) {
  kernels::fill_initial(state[1], cfg.grid, cfg.init);
  Kokkos::deep_copy(state[0].view, 1.0);
}

}  // namespace

const Equation& gray_scott_equation() {
  using Kind = core::PhysicsKey::Kind;
  static const Equation row = [] {
    Equation e;
    e.name = "gray-scott";
    e.app = "grayscott3d";
    e.title = "Gray-Scott reaction-diffusion (explicit Euler)";
    e.pde = "u_t = Du L(u) - u v^2 + F (1 - u),  v_t = Dv L(v) + u v^2 - (F + k) v";
    e.keys = {{"Du", Kind::kPositiveNumber, "positive number", "required", {}, "diffusivity of u (the substrate)",
               "a positive number", "diffusivity of u", 0, {}},
              {"Dv", Kind::kPositiveNumber, "positive number", "required", {}, "diffusivity of v (the activator)",
               "a positive number", "diffusivity of v", 0, {}},
              {"feed", Kind::kNonNegativeNumber, "number ≥ 0", "required", {}, "feed rate F: u is fed towards 1 at rate F",
               "a number >= 0", "feed rate", 0, {}},
              {"kill", Kind::kNonNegativeNumber, "number ≥ 0", "required", {}, "kill rate k: v decays at rate F + k",
               "a number >= 0", "kill rate", 0, {}}};
    e.fields = {"u", "v"};
    e.dt_max = dt_max;
    e.limit_text = "dt <= 2/(max(Du,Dv)*rho)";
    e.initial_conditions = {"gaussian"};
    e.fill_initial = fill_initial;
    e.make_update = make_update;
    return e;
  }();
  return row;
}

}  // namespace cartex::physics
