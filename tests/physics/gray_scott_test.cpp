// Gray–Scott's row (physics/src/gray_scott.cpp): its update of u and v equals the two equations
// evaluated cell by cell on the host, bit for bit (the same sums in the stencil's order), over the
// interior and over a region of cells; its stability limit is the faster diffusion's; its initial
// state is the gaussian seed of v in u = 1; its state is u and v, and the input keys are its own.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/stability.hpp"
#include "cartex/core/state.hpp"
#include "cartex/kernels/cell_region.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex {
namespace {

const physics::Equation& gs() { return physics::find_equation("gray-scott"); }

core::Config config(const std::vector<std::string>& sets = {}) {
  core::InputSources in;
  in.sets = sets;
  in.files = {"gs.yaml"};
  in.texts["gs.yaml"] =
      "grid: {n: [12, 10, 6], length: [12.0, 10.0, 6.0], periodic: true}\n"
      "physics: {Du: 0.2, Dv: 0.1, feed: 0.037, kill: 0.06, dt: 0.9}\n"
      "stencil: 27pt\n"
      "init: {type: gaussian, amplitude: 0.5, width: 2.0}\n";
  return core::load_config(in, physics::loader_input(gs()));
}

// The whole grid on one rank with a halo of one cell, its halo filled by periodic wrap.
core::FieldLayout layout_of(const core::Config& c) {
  core::FieldLayout l;
  l.box.n = c.grid.n;
  for (int d = 0; d < 3; ++d) l.halo.lo[d] = l.halo.hi[d] = 1;
  return l;
}

using Host = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;

void fill_periodic(Host h, const core::FieldLayout& l, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  for (long z = 0; z < l.box.n[2]; ++z)
    for (long y = 0; y < l.box.n[1]; ++y)
      for (long x = 0; x < l.box.n[0]; ++x) h(z + 1, y + 1, x + 1) = uni(rng);
  const auto wrap = [](long i, long n) { return (i - 1 + n) % n + 1; };
  for (long z = 0; z < l.extent(2); ++z)
    for (long y = 0; y < l.extent(1); ++y)
      for (long x = 0; x < l.extent(0); ++x)
        h(z, y, x) = h(wrap(z, l.box.n[2]), wrap(y, l.box.n[1]), wrap(x, l.box.n[0]));
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(GrayScott, RowDeclaresItsFieldsAndKeys) {
  EXPECT_EQ(gs().fields, (std::vector<std::string>{"u", "v"}));
  EXPECT_EQ(physics::state_names(gs()), (std::vector<std::string>{"u", "v"}));
  EXPECT_EQ(config().fields, (std::vector<std::string>{"u", "v"}));
  EXPECT_EQ(config().output_fields, (std::vector<std::string>{"u", "v"}));  // the default: the equation's fields
  EXPECT_THROW(config({"output.fields=[w]"}), core::InputError);
  EXPECT_EQ(config({"output.fields=[v, rank]"}).output_fields, (std::vector<std::string>{"v", "rank"}));
}

TEST(GrayScott, StabilityLimitIsTheFasterDiffusions) {
  // Euler's limit of the stencil's symbol scaled by max(Du, Dv), whichever field diffuses faster.
  for (const auto& d : {std::vector<std::string>{"physics.Du=0.2", "physics.Dv=0.1"}, {"physics.Du=0.1", "physics.Dv=0.2"}}) {
    const core::Config c = config(d);
    EXPECT_EQ(c.dt_max, core::time_step_limit(c.stencil, core::Integrator::kExplicitEuler, 0.2).dt_max) << d[0];
    EXPECT_LT(c.dt_max, core::time_step_limit(c.stencil, core::Integrator::kExplicitEuler, 0.1).dt_max) << d[0];
  }
  EXPECT_THROW(config({"physics.dt=100.0"}), core::InputError);  // beyond the limit
}

TEST(GrayScott, UpdateIsTheEquationsCellByCell) {
  const core::Config c = config();
  const core::FieldLayout l = layout_of(c);
  core::State in({"u", "v"}, l), out({"u_next", "v_next"}, l);
  std::mt19937_64 rng(37);
  std::vector<Host> h;
  for (core::Field& f : in) {
    h.push_back(Kokkos::create_mirror_view(f.view));
    fill_periodic(h.back(), l, rng);
    Kokkos::deep_copy(f.view, h.back());
  }
  const auto op = gs().make_update(c, l, {});
  op->apply(in, out);
  // Over a region: the same cells again, into a second state, run by run (one run per row).
  core::State regional({"u_r", "v_r"}, l);
  std::vector<core::LineRun> runs;
  for (long z = 0; z < l.box.n[2]; ++z)
    for (long y = 0; y < l.box.n[1]; ++y) runs.push_back({((z + 1) * l.extent(1) + (y + 1)) * l.extent(0) + 1, l.box.n[0]});
  op->apply(in, regional, kernels::make_cell_region(l, runs));
  Kokkos::fence();
  const double Du = 0.2, Dv = 0.1, F = 0.037, k = 0.06, dt = 0.9;
  long checked = 0;
  for (std::size_t q = 0; q < 2; ++q) {
    auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out[q].view);
    auto reg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), regional[q].view);
    for (long z = 1; z <= l.box.n[2]; ++z)
      for (long y = 1; y <= l.box.n[1]; ++y)
        for (long x = 1; x <= l.box.n[0]; ++x) {
          double lu = 0, lv = 0;
          for (int t = 0; t < c.stencil.size(); ++t) {
            const auto& o = c.stencil.offsets[t];
            lu += c.stencil.weights[t] * h[0](z + o[2], y + o[1], x + o[0]);
            lv += c.stencil.weights[t] * h[1](z + o[2], y + o[1], x + o[0]);
          }
          const double u = h[0](z, y, x), v = h[1](z, y, x), uvv = u * v * v;
          const double want = q == 0 ? u + dt * (Du * lu - uvv + F * (1.0 - u)) : v + dt * (Dv * lv + uvv - (F + k) * v);
          ASSERT_TRUE(same_bits(got(z, y, x), want)) << "field " << q << " at " << x << "," << y << "," << z;
          ASSERT_TRUE(same_bits(reg(z, y, x), want)) << "region, field " << q << " at " << x << "," << y << "," << z;
          ++checked;
        }
  }
  EXPECT_EQ(checked, 2 * c.grid.cells());
  core::State one({"u"}, l);
  EXPECT_THROW(op->apply(one, out), core::Error);
}

TEST(GrayScott, InitialStateIsASeedOfV) {
  const core::Config c = config();
  const core::FieldLayout l = layout_of(c);
  core::State s({"u", "v"}, l);
  ASSERT_NE(gs().fill_initial, nullptr);
  gs().fill_initial(c, s);
  auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s[0].view);
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s[1].view);
  double vmax = 0;
  for (long z = 1; z <= l.box.n[2]; ++z)
    for (long y = 1; y <= l.box.n[1]; ++y)
      for (long x = 1; x <= l.box.n[0]; ++x) {
        EXPECT_EQ(u(z, y, x), 1.0);
        EXPECT_GE(v(z, y, x), 0.0);
        vmax = std::max(vmax, v(z, y, x));
      }
  EXPECT_GT(vmax, 0.4);  // amplitude 0.5 near the centre
  EXPECT_LE(vmax, 0.5);
}

}  // namespace
}  // namespace cartex
