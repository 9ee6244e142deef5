// Kernels on one rank: the specialized and generic stencil kernels agree bit for bit, the builtin
// operators differentiate quadratics exactly, Dirichlet ghost cells get their face's value, Neumann
// ghost cells mirror the interior with the flux term (edges in x, y, z order), Robin ghost cells solve
// their relation with the mirror (and a = 0, b = 1 is Neumann to the bit), and the diagnostics
// reduce what is in the field.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstring>
#include <random>

#include "cartex/core/error.hpp"
#include "cartex/core/field.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/diagnostics.hpp"
#include "cartex/kernels/stencil_update.hpp"

namespace cartex::kernels {
namespace {

core::GlobalGrid grid(int dim, std::array<long, 3> n, bool periodic) {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = n;
  for (int d = 0; d < 3; ++d) {
    g.periodic[d] = d >= dim || periodic;
    g.length[d] = g.periodic[d] ? n[d] * 0.1 : (n[d] + 1) * 0.1;  // h = 0.1 everywhere
  }
  return g;
}

core::FieldLayout layout_for(const core::GlobalGrid& g, const core::Stencil& s) {
  core::FieldLayout l;
  l.box.n = g.n;
  l.halo = s.reach();
  return l;
}

// Fills every cell of the view (halo included) from f(view i, j, k).
template <class F>
void fill(core::Field& f, F&& value) {
  auto h = Kokkos::create_mirror_view(f.view);
  for (long k = 0; k < f.layout.extent(2); ++k)
    for (long j = 0; j < f.layout.extent(1); ++j)
      for (long i = 0; i < f.layout.extent(0); ++i) h(k, j, i) = value(i, j, k);
  Kokkos::deep_copy(f.view, h);
}

TEST(StencilOperator, FixedAndGenericKernelsAgreeBitwise) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (int dim : {2, 3})
    for (const auto& name : core::builtin_stencil_names(dim)) {
      const core::GlobalGrid g = grid(dim, {13, 9, dim == 3 ? 7 : 1}, true);
      const core::Stencil s = core::make_builtin_stencil(name, g);
      const core::FieldLayout l = layout_for(g, s);
      core::Field in("in", l), a("a", l), b("b", l);
      fill(in, [&](long, long, long) { return uni(rng); });
      const StencilOperator fixed(s, l), generic(s, l, StencilOperator::Kernel::kGeneric);
      EXPECT_STRNE(fixed.kernel_name(), "generic") << name;
      EXPECT_STREQ(generic.kernel_name(), "generic");
      fixed.apply(in, a, 0.37);
      generic.apply(in, b, 0.37);
      auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.view);
      auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.view);
      long differ = 0;
      for (size_t q = 0; q < ha.size(); ++q) differ += ha.data()[q] != hb.data()[q];
      EXPECT_EQ(differ, 0) << name;
    }
}

TEST(StencilOperator, BuiltinsDifferentiateQuadraticsExactly) {
  // u = x^2 + 2y^2 - z^2 (positions in cell units times h): Laplacian 2 + 4 - 2 = 4 (3D), 6 (2D).
  for (int dim : {2, 3})
    for (const auto& name : core::builtin_stencil_names(dim)) {
      const core::GlobalGrid g = grid(dim, {6, 5, dim == 3 ? 4 : 1}, true);
      const core::Stencil s = core::make_builtin_stencil(name, g);
      const core::FieldLayout l = layout_for(g, s);
      core::Field in("in", l), out("out", l);
      const double h = 0.1;
      fill(in, [&](long i, long j, long k) {
        const double x = (i - l.halo.lo[0]) * h, y = (j - l.halo.lo[1]) * h, z = (k - l.halo.lo[2]) * h;
        return x * x + 2 * y * y - (dim == 3 ? z * z : 0.0);
      });
      StencilOperator(s, l).apply(in, out, 1.0);
      auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in.view);
      auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out.view);
      const double lap = dim == 3 ? 4.0 : 6.0;
      for (long k = l.halo.lo[2]; k < l.halo.lo[2] + l.box.n[2]; ++k)
        for (long j = l.halo.lo[1]; j < l.halo.lo[1] + l.box.n[1]; ++j)
          for (long i = l.halo.lo[0]; i < l.halo.lo[0] + l.box.n[0]; ++i)
            ASSERT_NEAR(ho(k, j, i) - hi(k, j, i), lap, 1e-10) << name << " at " << i << "," << j << "," << k;
    }
}

TEST(StencilOperator, RejectsAHaloNarrowerThanTheStencil) {
  const core::GlobalGrid g = grid(3, {4, 4, 4}, true);
  core::FieldLayout l;
  l.box.n = g.n;
  l.halo.lo = {1, 1, 0};
  l.halo.hi = {1, 1, 1};
  EXPECT_THROW(StencilOperator op(core::make_builtin_stencil("7pt", g), l), core::Error);
}

TEST(Boundary, DirichletGhostsTakeTheirFacesValue) {
  const core::GlobalGrid g = grid(3, {4, 3, 2}, false);
  const core::Stencil s = core::make_builtin_stencil("27pt", g);
  const core::FieldLayout l = layout_for(g, s);
  core::Field f("f", l);
  Kokkos::deep_copy(f.view, 7.0);
  BoundaryFaces faces{};
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side) faces[d][side].value = 2 * d + side + 1;
  fill_dirichlet(f, g, faces);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  EXPECT_EQ(h(1, 1, 0), 1.0);  // x low face
  EXPECT_EQ(h(1, 1, 5), 2.0);  // x high face
  EXPECT_EQ(h(1, 0, 1), 3.0);  // y low face
  EXPECT_EQ(h(1, 4, 1), 4.0);  // y high face
  EXPECT_EQ(h(0, 1, 1), 5.0);  // z low face
  EXPECT_EQ(h(3, 1, 1), 6.0);  // z high face
  EXPECT_EQ(h(0, 0, 0), 1.0);  // corner: x decides
  EXPECT_EQ(h(3, 4, 2), 4.0);  // edge y/z: y decides
  EXPECT_EQ(h(1, 1, 1), 7.0);  // interior untouched
}

TEST(Boundary, NeumannGhostsMirrorTheInteriorWithTheFluxTerm) {
  core::GlobalGrid g = grid(2, {4, 3, 1}, false);
  using Kind = core::WallKind;
  BoundaryFaces faces{};
  faces[0][0] = {Kind::kNeumann, 2.0};    // x low: Neumann, q = 2
  faces[0][1] = {Kind::kDirichlet, 5.0};  // x high: Dirichlet 5
  faces[1][0] = {Kind::kDirichlet, 7.0};  // y low: Dirichlet 7
  faces[1][1] = {Kind::kNeumann, -1.0};   // y high: Neumann, q = -1
  faces[2][0] = faces[2][1] = {Kind::kPeriodic, 0.0};
  g.wall[0][0] = g.wall[1][1] = Kind::kNeumann;
  const core::Stencil s = core::make_star_stencil(4, g);  // reach 2: two ghost layers
  const core::FieldLayout l = layout_for(g, s);
  core::Field f("f", l);
  fill(f, [](long i, long j, long) { return 10.0 * j + i; });
  const Boundary b(g, faces);
  EXPECT_TRUE(b.refreshes());
  b.fill(f, 0);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  const double hx = g.spacing(0), hy = g.spacing(1);
  const auto u = [](long i, long j) { return 10.0 * j + i; };  // view indices (halo 2)
  // x low ghost m mirrors cell m: view i = 1 - m <- i = 2 + m, plus (2m + 1) h q.
  EXPECT_EQ(h(0, 3, 1), u(2, 3) + 1 * hx * 2.0);
  EXPECT_EQ(h(0, 3, 0), u(3, 3) + 3.0 * (hx * 2.0));
  EXPECT_EQ(h(0, 3, 6), 5.0);  // x high: constant
  EXPECT_EQ(h(0, 1, 3), 7.0);  // y low: constant
  EXPECT_EQ(h(0, 5, 3), u(3, 4) + 1 * hy * -1.0);  // y high ghost 0 mirrors the last row
  EXPECT_EQ(h(0, 6, 3), u(3, 3) + 3 * hy * -1.0);
  // Corner outside x low (Neumann) and y low (constant): the constant first, then the x refresh
  // mirrors the constant row.
  EXPECT_EQ(h(0, 1, 1), 7.0 + hx * 2.0);
  // Corner outside x low and y high (both Neumann): y is filled last, from the x ghosts filled first.
  EXPECT_EQ(h(0, 5, 1), (u(2, 4) + hx * 2.0) + hy * -1.0);
  EXPECT_EQ(h(0, 3, 3), u(3, 3));  // interior untouched
  // The positions: a Neumann wall half a cell outside, a Dirichlet wall on the ghost cell.
  EXPECT_DOUBLE_EQ(hx, g.length[0] / 4.5);  // n - 1 + 1/2 + 1
  EXPECT_DOUBLE_EQ(g.position(0, 0), 0.5 * hx);
  EXPECT_DOUBLE_EQ(g.position(0, 4), g.length[0]);
}

// A Robin ghost at layer m solves a (u_g + u_m) / 2 + b (u_g - u_m) / d = g with d = (2m + 1) h, from
// its mirror u_m; b = 0 is a Dirichlet wall half a cell outside; a = 0, b = 1, g = q gives exactly the
// Neumann ghosts' bits.
TEST(Boundary, RobinGhostsSolveTheRobinRelationWithTheirMirror) {
  core::GlobalGrid g = grid(2, {5, 4, 1}, false);
  using Kind = core::WallKind;
  BoundaryFaces faces{};
  faces[0][0] = {Kind::kRobin, 0.0, {1.0, 0.5, 0.25}};   // x low: a = 1, b = 1/2, g = 1/4
  faces[0][1] = {Kind::kRobin, 0.0, {2.0, 0.0, 3.0}};    // x high: b = 0 (u = g / a = 1.5 on the wall)
  faces[1][0] = {Kind::kRobin, 0.0, {0.3, 1.7, -0.9}};   // y low
  faces[1][1] = {Kind::kDirichlet, 4.0};                 // y high: constant
  faces[2][0] = faces[2][1] = {Kind::kPeriodic, 0.0};
  g.wall[0][0] = g.wall[0][1] = g.wall[1][0] = Kind::kRobin;
  const core::Stencil s = core::make_star_stencil(4, g);  // reach 2: two ghost layers
  const core::FieldLayout l = layout_for(g, s);
  core::Field f("f", l);
  const auto u = [](long i, long j) { return 0.37 * j * j - 0.11 * i + 0.013 * i * j + 1.0; };  // view indices (halo 2)
  fill(f, [&](long i, long j, long) { return u(i, j); });
  const Boundary b(g, faces);
  EXPECT_TRUE(b.refreshes());
  b.fill(f, 0);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  const double hx = g.spacing(0), hy = g.spacing(1);
  const auto residual = [](const core::RobinCoefficients& r, double ghost, double mirror, double dist) {
    return r.a * (ghost + mirror) / 2 + r.b * (ghost - mirror) / dist - r.g;
  };
  for (long j = 2; j < 6; ++j)
    for (long m = 0; m < 2; ++m) {
      // x low ghost m at view i = 1 - m mirrors i = 2 + m; x high ghost m at i = 7 + m mirrors i = 6 - m.
      EXPECT_NEAR(residual(faces[0][0].robin, h(0, j, 1 - m), u(2 + m, j), (2 * m + 1) * hx), 0.0, 1e-14) << j << " " << m;
      EXPECT_NEAR(residual(faces[0][1].robin, h(0, j, 7 + m), u(6 - m, j), (2 * m + 1) * hx), 0.0, 1e-14) << j << " " << m;
      EXPECT_NEAR((h(0, j, 7 + m) + u(6 - m, j)) / 2, 1.5, 1e-14);  // b = 0: the mean on the wall is g / a
    }
  for (long i = 2; i < 7; ++i)
    for (long m = 0; m < 2; ++m)  // y low ghost m at view j = 1 - m mirrors j = 2 + m
      EXPECT_NEAR(residual(faces[1][0].robin, h(0, 1 - m, i), u(i, 2 + m), (2 * m + 1) * hy), 0.0, 1e-14) << i << " " << m;
  EXPECT_EQ(h(0, 6, 3), 4.0);  // y high: constant
  // The positions: a Robin wall half a cell outside, as a Neumann one.
  EXPECT_DOUBLE_EQ(hx, g.length[0] / 5.0);  // n - 1 + 1/2 + 1/2
  EXPECT_DOUBLE_EQ(g.position(0, 0), 0.5 * hx);

  // a = 0, b = 1, g = q: the Neumann ghosts to the bit, whatever the field holds.
  BoundaryFaces neumann = faces, robin = faces;
  const double q[3] = {2.0, -0.431, 1e-3};
  for (int d = 0; d < 2; ++d)
    for (int side = 0; side < 2; ++side) {
      neumann[d][side] = {Kind::kNeumann, q[(d + side) % 3]};
      robin[d][side] = {Kind::kRobin, 0.0, {0.0, 1.0, q[(d + side) % 3]}};
      g.wall[d][side] = Kind::kNeumann;
    }
  std::mt19937_64 rng(36);
  std::uniform_real_distribution<double> any(-1e3, 1e3);
  core::Field fn("fn", l), fr("fr", l);
  fill(fn, [&](long, long, long) { return any(rng) * std::pow(10.0, static_cast<int>(any(rng)) % 9); });
  Kokkos::deep_copy(fr.view, fn.view);
  Boundary(g, neumann).fill(fn, 0);
  g.wall[0][0] = g.wall[0][1] = g.wall[1][0] = g.wall[1][1] = Kind::kRobin;
  Boundary(g, robin).fill(fr, 0);
  auto hn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fn.view);
  auto hr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fr.view);
  for (long j = 0; j < l.extent(1); ++j)
    for (long i = 0; i < l.extent(0); ++i)
      EXPECT_EQ(std::memcmp(&hn(0, j, i), &hr(0, j, i), sizeof(double)), 0) << i << " " << j << ": " << hn(0, j, i) << " " << hr(0, j, i);
}

TEST(Diagnostics, StatsAndChecksumSeeEveryInteriorCellOnly) {
  const core::GlobalGrid g = grid(3, {5, 4, 3}, true);
  const core::Stencil s = core::make_builtin_stencil("7pt", g);
  const core::FieldLayout l = layout_for(g, s);
  core::Field f("f", l);
  fill(f, [&](long i, long j, long k) {
    const bool inside = i >= 1 && i <= 5 && j >= 1 && j <= 4 && k >= 1 && k <= 3;
    return inside ? static_cast<double>(i + 10 * j + 100 * k) : 1e9;
  });
  // The test binary runs on one rank here; the reductions are over MPI_COMM_SELF.
  const FieldStats st = field_stats(f, MPI_COMM_SELF);
  double sum = 0;
  for (int k = 1; k <= 3; ++k)
    for (int j = 1; j <= 4; ++j)
      for (int i = 1; i <= 5; ++i) sum += i + 10 * j + 100 * k;
  EXPECT_EQ(st.sum, sum);
  EXPECT_EQ(st.min, 111.0);
  EXPECT_EQ(st.max, 345.0);
  const auto c1 = field_checksum(f, g, MPI_COMM_SELF);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  h(0, 0, 0) = -5;  // a halo cell: no effect
  Kokkos::deep_copy(f.view, h);
  EXPECT_EQ(field_checksum(f, g, MPI_COMM_SELF), c1);
  h(2, 2, 2) = std::nextafter(h(2, 2, 2), 1e300);  // one ulp in the interior: a different checksum
  Kokkos::deep_copy(f.view, h);
  EXPECT_NE(field_checksum(f, g, MPI_COMM_SELF), c1);
}

}  // namespace
}  // namespace cartex::kernels
