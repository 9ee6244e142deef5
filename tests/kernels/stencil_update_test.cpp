// StencilOperator's kernels on one rank: every specialized shape (stars of radius 1..4 in 2D and 3D
// with every pattern of equal spacings, the 9pt and 27pt boxes) gives the same bits as the generic
// kernel and as the evaluation order stencil_update.hpp documents, written out here cell by cell, for
// both schemes, over the interior and over regions; kernel selection by shape.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/core/kokkos_compat.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/kernels/cell_region.hpp"
#include "cartex/kernels/stencil_update.hpp"

namespace cartex::kernels {
namespace {

using HostView = core::host_mirror_t<core::FieldView>;

long factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// The star of radius r in the documented point order: the centre, then for d in x, y(, z) and
// k = 1..r the offsets -k, +k; weights c_k / h_d^2 with c_k = 2 (-1)^(k+1) (r!)^2 / (k^2 (r-k)! (r+k)!),
// the centre adding -2 sum_k c_k / h_d^2 dimension by dimension.
core::Stencil star_stencil(int dim, int r, std::array<double, 3> h) {
  core::Stencil s;
  s.name = "star" + std::to_string(r);
  s.dim = dim;
  std::vector<double> c(r + 1, 0.0);
  double c0 = 0;
  for (int k = 1; k <= r; ++k) {
    const double num = 2.0 * (k % 2 == 1 ? 1 : -1) * factorial(r) * factorial(r);
    c[k] = num / (static_cast<double>(k) * k * factorial(r - k) * factorial(r + k));
    c0 -= 2 * c[k];
  }
  double centre = 0;
  for (int d = 0; d < dim; ++d) centre += c0 / (h[d] * h[d]);
  s.offsets.push_back({0, 0, 0});
  s.weights.push_back(centre);
  for (int d = 0; d < dim; ++d)
    for (int k = 1; k <= r; ++k)
      for (int side : {-1, 1}) {
        core::Offset o{0, 0, 0};
        o[d] = side * k;
        s.offsets.push_back(o);
        s.weights.push_back(c[k] / (h[d] * h[d]));
      }
  return s;
}

core::Stencil builtin(int dim, const std::string& name) {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = {8, 8, dim == 3 ? 8 : 1};
  g.length = {0.8, 0.8, dim == 3 ? 0.8 : 1.0};
  return core::make_builtin_stencil(name, g);
}

core::FieldLayout layout_for(const core::Stencil& s, std::array<long, 3> n) {
  core::FieldLayout l;
  l.box.n = n;
  l.halo = s.reach();
  return l;
}

void fill_random(core::Field& f, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  auto h = Kokkos::create_mirror_view(f.view);
  for (size_t q = 0; q < h.size(); ++q) h.data()[q] = uni(rng);
  Kokkos::deep_copy(f.view, h);
}

// A host copy (never the field's own storage, also when that is host memory).
HostView host(const core::Field& f) {
  HostView h = Kokkos::create_mirror(f.view);
  Kokkos::deep_copy(h, f.view);
  return h;
}

core::Field copy_of(const core::Field& f, const std::string& name) {
  core::Field c(name, f.layout);
  Kokkos::deep_copy(c.view, f.view);
  return c;
}

long count_differences(const HostView& a, const HostView& b) {
  long differ = 0;
  for (size_t q = 0; q < a.size(); ++q) differ += a.data()[q] != b.data()[q];
  return differ;
}

// The documented order written out for one cell: groups by weight (first appearance), parts by
// ascending dx, each part's lines left to right in stencil order, groups left to right.
double reference_acc(const core::Stencil& s, const double* u, long p, long sy, long sz) {
  std::vector<double> weight;
  std::vector<std::vector<int>> members;
  for (int q = 0; q < s.size(); ++q) {
    size_t g = 0;
    while (g < weight.size() && weight[g] != s.weights[q]) ++g;
    if (g == weight.size()) {
      weight.push_back(s.weights[q]);
      members.emplace_back();
    }
    members[g].push_back(q);
  }
  double acc = 0;
  for (size_t g = 0; g < weight.size(); ++g) {
    std::set<int> dxs;
    for (int q : members[g]) dxs.insert(s.offsets[q][0]);
    double group = 0;
    bool first_part = true;
    for (int dx : dxs) {
      double column = 0;
      bool first_line = true;
      for (int q : members[g]) {
        const core::Offset& o = s.offsets[q];
        if (o[0] != dx) continue;
        const double value = u[p + o[0] + o[1] * sy + o[2] * sz];
        column = first_line ? value : column + value;
        first_line = false;
      }
      group = first_part ? column : group + column;
      first_part = false;
    }
    const double term = weight[g] * group;
    acc = g == 0 ? term : acc + term;
  }
  return acc;
}

// out over the interior by the reference order and scheme, on host copies.
HostView reference_apply(const core::Stencil& s, const core::Field& in, const core::Field& out, double coeff, core::Integrator scheme) {
  const core::FieldLayout& l = in.layout;
  HostView u = host(in), v = host(out);
  const long sy = l.extent(0), sz = l.extent(0) * l.extent(1);
  for (long k = l.halo.lo[2]; k < l.halo.lo[2] + l.box.n[2]; ++k)
    for (long j = l.halo.lo[1]; j < l.halo.lo[1] + l.box.n[1]; ++j)
      for (long i = l.halo.lo[0]; i < l.halo.lo[0] + l.box.n[0]; ++i) {
        const long p = k * sz + j * sy + i;
        const double acc = reference_acc(s, u.data(), p, sy, sz);
        v.data()[p] = scheme == core::Integrator::kLeapfrog ? (2.0 * u.data()[p] - v.data()[p]) + coeff * acc
                                                  : u.data()[p] + coeff * acc;
      }
  return v;
}

// Runs of interior cells of every kind the host loop distinguishes: whole lines, runs shorter than a
// vector, runs starting at every alignment; about half of the lines, the rest untouched.
std::vector<core::LineRun> some_runs(const core::FieldLayout& l) {
  std::vector<core::LineRun> runs;
  const long sy = l.extent(0), sz = l.extent(0) * l.extent(1), nx = l.box.n[0];
  long line = 0;
  for (long k = 0; k < l.box.n[2]; ++k)
    for (long j = 0; j < l.box.n[1]; ++j, ++line) {
      const long base = (k + l.halo.lo[2]) * sz + (j + l.halo.lo[1]) * sy + l.halo.lo[0];
      switch (line % 4) {
        case 0: runs.push_back({base, nx}); break;
        case 1: {
          const long a = std::min(nx, line % 9), b = std::min(nx - a, 3L);
          runs.push_back({base, a});
          if (a + b < nx) runs.push_back({base + a + b, nx - a - b});
          break;
        }
        case 2: runs.push_back({base + nx / 2, nx - nx / 2}); break;
        default: break;
      }
    }
  return runs;
}

struct Case {
  std::string label;
  core::Stencil stencil;
  std::string kernel;  // expected kernel_name() with Kernel::kAuto
};

std::vector<Case> specialized_cases() {
  std::vector<Case> cases;
  for (int r = 1; r <= 4; ++r) {
    const std::string rs = std::to_string(r);
    cases.push_back({"3D star r=" + rs, star_stencil(3, r, {0.1, 0.1, 0.1}), "star<3," + rs + ">"});
    cases.push_back({"2D star r=" + rs, star_stencil(2, r, {0.1, 0.1, 1.0}), "star<2," + rs + ">"});
    cases.push_back({"3D star r=" + rs + " x|y|z", star_stencil(3, r, {0.1, 0.2, 0.3}), "star<3," + rs + ",x|y|z>"});
    cases.push_back({"3D star r=" + rs + " xy|z", star_stencil(3, r, {0.1, 0.1, 0.3}), "star<3," + rs + ",xy|z>"});
    cases.push_back({"3D star r=" + rs + " xz|y", star_stencil(3, r, {0.1, 0.3, 0.1}), "star<3," + rs + ",xz|y>"});
    cases.push_back({"3D star r=" + rs + " x|yz", star_stencil(3, r, {0.3, 0.1, 0.1}), "star<3," + rs + ",x|yz>"});
    cases.push_back({"2D star r=" + rs + " x|y", star_stencil(2, r, {0.1, 0.3, 1.0}), "star<2," + rs + ",x|y>"});
  }
  cases.push_back({"5pt", builtin(2, "5pt"), "star<2,1>"});
  cases.push_back({"7pt", builtin(3, "7pt"), "star<3,1>"});
  cases.push_back({"9pt", builtin(2, "9pt"), "box9"});
  cases.push_back({"27pt", builtin(3, "27pt"), "box27"});
  return cases;
}

// Interior sizes: lines longer than a vector (head, aligned middle, tail), shorter than a vector, and
// longer than a host chunk.
std::vector<std::array<long, 3>> sizes(int dim) {
  if (dim == 2) return {{19, 6, 1}, {5, 3, 1}, {300, 3, 1}};
  return {{19, 5, 4}, {5, 3, 2}};
}

TEST(StencilKernels, SpecializedGenericAndReferenceAgreeBitwise) {
  std::mt19937_64 rng(7);
  for (const auto& c : specialized_cases())
    for (const auto& n : sizes(c.stencil.dim))
      for (core::Integrator scheme : {core::Integrator::kExplicitEuler, core::Integrator::kLeapfrog}) {
        const std::string what =
            c.label + " n=" + std::to_string(n[0]) + (scheme == core::Integrator::kExplicitEuler ? " euler" : " leapfrog");
        const core::FieldLayout l = layout_for(c.stencil, n);
        const StencilOperator fast(c.stencil, l, StencilOperator::Kernel::kAuto, scheme);
        const StencilOperator generic(c.stencil, l, StencilOperator::Kernel::kGeneric, scheme);
        ASSERT_EQ(fast.kernel_name(), c.kernel) << what;
        ASSERT_STREQ(generic.kernel_name(), "generic") << what;
        core::Field in("in", l), old("old", l);
        fill_random(in, rng);
        fill_random(old, rng);
        const double coeff = 0.0123;
        core::Field a = copy_of(old, "a"), b = copy_of(old, "b");
        fast.apply(in, a, coeff);
        generic.apply(in, b, coeff);
        const HostView ref = reference_apply(c.stencil, in, old, coeff, scheme);
        EXPECT_EQ(count_differences(host(a), ref), 0) << what << " (specialized vs reference)";
        EXPECT_EQ(count_differences(host(b), ref), 0) << what << " (generic vs reference)";
      }
}

TEST(StencilKernels, RegionSweepEqualsInteriorSweepOnItsCells) {
  std::mt19937_64 rng(11);
  for (const auto& c : specialized_cases())
    for (const auto& n : sizes(c.stencil.dim))
      for (auto kernel : {StencilOperator::Kernel::kAuto, StencilOperator::Kernel::kGeneric})
        for (core::Integrator scheme : {core::Integrator::kExplicitEuler, core::Integrator::kLeapfrog}) {
          const std::string what = c.label + " n=" + std::to_string(n[0]) +
                                   (kernel == StencilOperator::Kernel::kAuto ? " auto" : " generic") +
                                   (scheme == core::Integrator::kExplicitEuler ? " euler" : " leapfrog");
          const core::FieldLayout l = layout_for(c.stencil, n);
          const StencilOperator op(c.stencil, l, kernel, scheme);
          core::Field in("in", l), old("old", l);
          fill_random(in, rng);
          fill_random(old, rng);
          core::Field whole = copy_of(old, "whole"), part = copy_of(old, "part");
          const auto runs = some_runs(l);
          op.apply(in, whole, 0.37);
          op.apply(in, part, 0.37, make_cell_region(l, runs));
          const HostView w = host(whole), p = host(part), o = host(old);
          std::vector<char> in_region(w.size(), 0);
          for (const auto& r : runs)
            for (long q = r.start; q < r.start + r.length; ++q) in_region[q] = 1;
          long wrong = 0;
          for (size_t q = 0; q < w.size(); ++q) wrong += p.data()[q] != (in_region[q] ? w.data()[q] : o.data()[q]);
          EXPECT_EQ(wrong, 0) << what;
        }
}

TEST(StencilKernels, LeapfrogMatchesADirectComputation) {
  // out = 2u - old + coeff * L(u) with L summed naively in stencil order: equal to rounding.
  std::mt19937_64 rng(3);
  for (const auto& c : specialized_cases()) {
    const core::FieldLayout l = layout_for(c.stencil, c.stencil.dim == 3 ? std::array<long, 3>{9, 5, 4} : std::array<long, 3>{9, 5, 1});
    core::Field in("in", l), out("out", l);
    fill_random(in, rng);
    fill_random(out, rng);
    const HostView u = host(in), old = host(out);
    const double coeff = 1e-3;
    StencilOperator(c.stencil, l, StencilOperator::Kernel::kAuto, core::Integrator::kLeapfrog).apply(in, out, coeff);
    const HostView v = host(out);
    const long sy = l.extent(0), sz = l.extent(0) * l.extent(1);
    double scale = 0;
    for (double w : c.stencil.weights) scale += std::abs(w);
    for (long k = l.halo.lo[2]; k < l.halo.lo[2] + l.box.n[2]; ++k)
      for (long j = l.halo.lo[1]; j < l.halo.lo[1] + l.box.n[1]; ++j)
        for (long i = l.halo.lo[0]; i < l.halo.lo[0] + l.box.n[0]; ++i) {
          const long p = k * sz + j * sy + i;
          double lap = 0;
          for (int q = 0; q < c.stencil.size(); ++q) {
            const core::Offset& o = c.stencil.offsets[q];
            lap += c.stencil.weights[q] * u.data()[p + o[0] + o[1] * sy + o[2] * sz];
          }
          const double expect = 2 * u.data()[p] - old.data()[p] + coeff * lap;
          ASSERT_NEAR(v.data()[p], expect, 1e-14 * (4 + coeff * scale)) << c.label << " at " << i << "," << j << "," << k;
        }
  }
}

TEST(StencilKernels, KernelSelectionByShape) {
  const auto name = [](const core::Stencil& s, StencilOperator::Kernel k = StencilOperator::Kernel::kAuto) {
    return std::string(StencilOperator(s, layout_for(s, {6, 6, s.dim == 3 ? 6L : 1L}), k).kernel_name());
  };
  EXPECT_EQ(name(builtin(3, "7pt")), "star<3,1>");
  EXPECT_EQ(name(builtin(2, "5pt")), "star<2,1>");
  EXPECT_EQ(name(builtin(2, "9pt")), "box9");
  EXPECT_EQ(name(builtin(3, "27pt")), "box27");
  EXPECT_EQ(name(star_stencil(3, 4, {0.1, 0.1, 0.1})), "star<3,4>");
  EXPECT_EQ(name(star_stencil(3, 2, {0.1, 0.2, 0.3})), "star<3,2,x|y|z>");
  EXPECT_EQ(name(builtin(3, "27pt"), StencilOperator::Kernel::kGeneric), "generic");

  // core's star stencils of every order, in 2D and 3D.
  for (int order : core::star_orders())
    for (int dim : {2, 3}) {
      core::GlobalGrid g;
      g.dim = dim;
      g.n = {16, 16, dim == 3 ? 16 : 1};
      const std::string expect = "star<" + std::to_string(dim) + "," + std::to_string(order / 2) + ">";
      EXPECT_EQ(name(core::make_star_stencil(order, g)), expect) << "order " << order;
    }
  // Radius 5: no specialized kernel.
  EXPECT_EQ(name(star_stencil(3, 5, {0.1, 0.1, 0.1})), "generic");
  // The same points in another order.
  core::Stencil shuffled = builtin(3, "7pt");
  std::swap(shuffled.offsets[1], shuffled.offsets[2]);
  std::swap(shuffled.weights[1], shuffled.weights[2]);
  EXPECT_EQ(name(shuffled), "generic");
  // A star whose weights do not have the star's grouping: one neighbour weight differs.
  core::Stencil lopsided = builtin(3, "7pt");
  lopsided.weights[2] *= 1.5;
  EXPECT_EQ(name(lopsided), "generic");
  // The centre weight equal to the neighbours': they form one group, which no star kernel evaluates.
  core::Stencil flat = builtin(3, "7pt");
  for (auto& w : flat.weights) w = 1.0;
  EXPECT_EQ(name(flat), "generic");
  // A box whose edges and corners share a weight.
  core::Stencil box = builtin(3, "27pt");
  for (int q = 0; q < box.size(); ++q) {
    const auto& o = box.offsets[q];
    if ((o[0] != 0) + (o[1] != 0) + (o[2] != 0) == 3) box.weights[q] = box.weights[1];  // corner := edge
  }
  EXPECT_EQ(name(box), "generic");
}

// The 5x5x5 box with weight `weight(|dx|, |dy|, |dz|)`: many groups and columns (more than the
// generic kernel windows), x reach 2.
template <class F>
core::Stencil box125(F&& weight) {
  core::Stencil s;
  s.name = "box125";
  s.dim = 3;
  for (int dz = -2; dz <= 2; ++dz)
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) {
        s.offsets.push_back({dx, dy, dz});
        s.weights.push_back(weight(std::abs(dx), std::abs(dy), std::abs(dz)));
      }
  return s;
}

TEST(StencilKernels, LargeGenericStencilsFollowTheDocumentedOrder) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const std::vector<core::Stencil> stencils{
      box125([](int a, int b, int c) { return 1.0 / (1 + a + 3 * b + 9 * c); }),        // symmetric groups
      box125([](int a, int b, int c) { return 0.5 + (a + b + c) % 3; }),              // few large groups
      box125([&](int, int, int) { return uni(rng); }),                                // 125 groups
      star_stencil(3, 6, {0.1, 0.1, 0.1})};                                           // radius 6: generic
  for (const auto& s : stencils)
    for (const auto& n : std::vector<std::array<long, 3>>{{21, 4, 3}, {6, 2, 2}})
      for (core::Integrator scheme : {core::Integrator::kExplicitEuler, core::Integrator::kLeapfrog}) {
        const core::FieldLayout l = layout_for(s, n);
        const StencilOperator op(s, l, StencilOperator::Kernel::kAuto, scheme);
        EXPECT_STREQ(op.kernel_name(), "generic");
        core::Field in("in", l), out("out", l);
        fill_random(in, rng);
        fill_random(out, rng);
        const HostView ref = reference_apply(s, in, out, 0.25, scheme);
        op.apply(in, out, 0.25);
        EXPECT_EQ(count_differences(host(out), ref), 0) << s.name << " n=" << n[0];
      }
}

TEST(StencilKernels, GenericStencilsFollowTheDocumentedOrder) {
  // Random stencils (offsets within radius 2, weights drawn from a few values so that groups form):
  // the generic kernel, selected automatically, gives the reference order's bits.
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> off(-2, 2), pick(0, 3), count(2, 20);  // 2D: 25 offsets
  const double values[4] = {0.25, -1.5, 3.0, 0.1};
  for (int trial = 0; trial < 20; ++trial) {
    core::Stencil s;
    s.name = "random";
    s.dim = trial % 2 == 0 ? 3 : 2;
    std::set<core::Offset> seen;
    const int points = count(rng);
    while (static_cast<int>(s.offsets.size()) < points) {
      const core::Offset o{off(rng), off(rng), s.dim == 3 ? off(rng) : 0};
      if (!seen.insert(o).second) continue;
      s.offsets.push_back(o);
      s.weights.push_back(values[pick(rng)]);
    }
    const core::FieldLayout l = layout_for(s, s.dim == 3 ? std::array<long, 3>{13, 4, 3} : std::array<long, 3>{21, 5, 1});
    for (core::Integrator scheme : {core::Integrator::kExplicitEuler, core::Integrator::kLeapfrog}) {
      const StencilOperator op(s, l, StencilOperator::Kernel::kAuto, scheme);
      core::Field in("in", l), out("out", l);
      fill_random(in, rng);
      fill_random(out, rng);
      const HostView ref = reference_apply(s, in, out, 0.5, scheme);
      op.apply(in, out, 0.5);
      EXPECT_EQ(count_differences(host(out), ref), 0) << "trial " << trial << " kernel " << op.kernel_name();
    }
  }
}

}  // namespace
}  // namespace cartex::kernels
