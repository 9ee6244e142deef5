// The `stencil` key of an input: every form (name, star, box, custom), each validation error with
// its message and FILE:LINE:COL, and the resolved YAML reloading to the same stencil.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "cartex/core/config.hpp"
#include "cartex/core/error.hpp"
#include "equation_inputs.hpp"
#include "stencil_test_files.hpp"

namespace cartex {
namespace {

using test::InputFiles;

// Lines 1-5; the stencil goes on line 6.
const std::string kBase3 = "grid:\n  n: [12, 12, 12]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n";
const std::string kBase2 = "grid:\n  n: [12, 12]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n";

bool bitwise_equal(const core::Stencil& a, const core::Stencil& b) {
  if (a.name != b.name || a.dim != b.dim || a.offsets != b.offsets || a.weights.size() != b.weights.size()) return false;
  return std::memcmp(a.weights.data(), b.weights.data(), a.weights.size() * sizeof(double)) == 0;
}

// True if the weights agree to rounding (a few ulps).
bool nearly_equal(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t q = 0; q < a.size(); ++q)
    if (std::abs(a[q] - b[q]) > 4e-16 * std::abs(b[q])) return false;
  return true;
}

TEST(StencilInput, NamesStayBuiltins) {
  InputFiles f;
  const core::Config c = test::heat_config(f.write(kBase3 + "stencil: 27pt\n"), {});
  EXPECT_TRUE(bitwise_equal(c.stencil, core::make_builtin_stencil("27pt", c.grid)));
  const core::Config d = test::heat_config(f.write(kBase2), {});
  EXPECT_EQ(d.stencil.name, "5pt");
}

TEST(StencilInput, StarByOrderOrRadiusOrBoth) {
  InputFiles f;
  for (const std::string form : {"{type: star, order: 6}", "{type: star, radius: 3}", "{type: star, order: 6, radius: 3}"}) {
    const core::Config c = test::heat_config(f.write(kBase3 + "stencil: " + form + "\n"), {});
    EXPECT_TRUE(bitwise_equal(c.stencil, core::make_star_stencil(6, c.grid))) << form;
    EXPECT_EQ(c.stencil.name, "star6");
  }
}

TEST(StencilInput, StarWorksOnAnisotropicGridsAndViaSet) {
  InputFiles f;
  const core::Config c = test::heat_config(f.write("grid:\n  n: [12, 10]\n  length: [1, 3]\n  periodic: [true, false]\n"
                                       "physics:\n  alpha: 1.0\n  cfl: 0.5\n"),
                               {"stencil={type: star, order: 4}"});
  EXPECT_TRUE(bitwise_equal(c.stencil, core::make_star_stencil(4, c.grid)));
  EXPECT_EQ(c.stencil.reach().hi, (std::array<int, 3>{2, 2, 0}));
}

TEST(StencilInput, BoxRadiusOneOrderTwoIsTheCompactBuiltin) {
  InputFiles f;
  const core::Config c3 = test::heat_config(f.write(kBase3 + "stencil: {type: box, radius: 1, order: 2}\n"), {});
  EXPECT_TRUE(bitwise_equal(c3.stencil, core::make_builtin_stencil("27pt", c3.grid)));
  const core::Config c2 = test::heat_config(f.write(kBase2 + "stencil: {type: box}\n"), {});
  EXPECT_TRUE(bitwise_equal(c2.stencil, core::make_builtin_stencil("9pt", c2.grid)));
}

TEST(StencilInput, CustomSpellingOutTheBuiltinsEqualsThem) {
  InputFiles f;
  const core::Config seven = test::heat_config(f.write(kBase3 + R"(stencil:
  name: my7pt
  offsets: [[0, 0, 0], [-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]]
  weights: [-6, 1, 1, 1, 1, 1, 1]
)"),
                                   {});
  const core::Stencil builtin7 = core::make_builtin_stencil("7pt", seven.grid);
  EXPECT_EQ(seven.stencil.name, "my7pt");
  EXPECT_EQ(seven.stencil.offsets, builtin7.offsets);
  EXPECT_TRUE(nearly_equal(seven.stencil.weights, builtin7.weights));
  EXPECT_EQ(seven.dt, test::heat_config(f.write(kBase3 + "stencil: 7pt\n"), {}).dt);

  // The 9pt from its 1/(6h^2) [-20, 4, 1] table, in the box point order, weights as given.
  const core::Config nine = test::heat_config(f.write(kBase2 + R"(stencil:
  offsets: [[-1, -1], [0, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [0, 1], [1, 1]]
  weights: [0.16666666666666666, 0.66666666666666663, 0.16666666666666666,
            0.66666666666666663, -3.3333333333333335, 0.66666666666666663,
            0.16666666666666666, 0.66666666666666663, 0.16666666666666666]
)"),
                                  {});
  const core::Stencil builtin9 = core::make_builtin_stencil("9pt", nine.grid);
  EXPECT_EQ(nine.stencil.name, "custom");
  EXPECT_EQ(nine.stencil.offsets, builtin9.offsets);
  EXPECT_TRUE(nearly_equal(nine.stencil.weights, builtin9.weights));
}

TEST(StencilInput, CustomWeightsAsGivenWithoutDividing) {
  InputFiles f;
  const core::Config c = test::heat_config(f.write("grid:\n  n: [10, 20]\n  length: [1, 4]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n"
                                       "stencil:\n  offsets: [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]\n"
                                       "  weights: [-232, 100, 100, 16, 16]\n  derivative: 0\n"),
                               {});
  EXPECT_EQ(c.stencil.weights, (std::vector<double>{-232, 100, 100, 16, 16}));
}

// Every resolved form, reloaded from the resolved YAML as an input, gives the same stencil and time step
// bit for bit.
TEST(StencilInput, ResolvedYamlReloadsTheSameStencil) {
  InputFiles f;
  for (const std::string stencil :
       {"7pt", "{type: star, radius: 4}", "{type: box}",
        "{offsets: [[0, 0, 0], [-2, 0, 0], [2, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]], "
        "weights: [-3.3, 0.1, 0.1, 0.7, 0.7, 0.85, 0.85], name: odd}",
        "{offsets: [[0, 0, 0], [1, 1, 1], [-1, -1, -1]], weights: [-0.2, 0.1, 0.1], derivative: 0}",
        "{offsets: [[0, 0, 0], [-1, 0, 0]], weights: [-1, 1], derivative: 1, name: upwind1}",
        "{offsets: [[0, 0, 0], [-1, 0, 0], [1, 0, 0]], weights: [-2.1, 1, 1], name: decay}"}) {
    SCOPED_TRACE(stencil);
    const core::Config first = test::heat_config(f.write(kBase3 + "stencil: " + stencil + "\n"), {});
    const core::Config again = test::heat_config(f.write(first.resolved_yaml), {});
    EXPECT_TRUE(bitwise_equal(again.stencil, first.stencil));
    EXPECT_EQ(again.dt, first.dt);
    EXPECT_EQ(again.resolved_yaml, first.resolved_yaml);
  }
}

// The error for `stencil_yaml` placed after kBase3 (or `base`), with the file name replaced by "in.yaml".
std::string error_of(const std::string& stencil_yaml, const std::string& base = kBase3,
                     const std::vector<std::string>& overrides = {}) {
  InputFiles f;
  const std::string path = f.write(base + stencil_yaml);
  try {
    test::heat_config(path, overrides);
  } catch (const core::InputError& e) {
    std::string what = e.what();
    if (what.rfind(path, 0) == 0) what = "in.yaml" + what.substr(path.size());
    return what;
  }
  return "(no error)";
}

TEST(StencilInputErrors, FormAndType) {
  EXPECT_EQ(error_of("stencil: [7pt]\n"),
            "in.yaml:6:10: stencil: expected a stencil name or a mapping (type: star or box; or offsets and weights)");
  EXPECT_EQ(error_of("stencil:\n  order: 4\n"),
            "in.yaml:7:3: stencil.type: required key is missing (star or box; or offsets and weights for a custom stencil)");
  EXPECT_EQ(error_of("stencil: {type: hexagon}\n"),
            "in.yaml:6:17: stencil.type: expected star or box, got \"hexagon\" (or give offsets and weights for a custom stencil)");
  EXPECT_EQ(error_of("stencil: 5pt\n"), "in.yaml:6:10: stencil: unknown stencil \"5pt\" for a 3D grid (expected one of: 7pt, 27pt)");
}

TEST(StencilInputErrors, Star) {
  EXPECT_EQ(error_of("stencil: {type: star}\n"),
            "in.yaml:6:10: stencil.order: required key is missing (give order: 2, 4, 6 or 8, or radius: 1 to 4)");
  EXPECT_EQ(error_of("stencil: {type: star, order: 3}\n"), "in.yaml:6:30: stencil.order: expected 2, 4, 6 or 8, got 3");
  EXPECT_EQ(error_of("stencil: {type: star, order: 10}\n"), "in.yaml:6:30: stencil.order: expected 2, 4, 6 or 8, got 10");
  EXPECT_EQ(error_of("stencil: {type: star, order: four}\n"),
            "in.yaml:6:30: stencil.order: expected an even order 2, 4, 6 or 8, got \"four\"");
  EXPECT_EQ(error_of("stencil: {type: star, radius: 5}\n"), "in.yaml:6:31: stencil.radius: expected 1, 2, 3 or 4, got 5");
  EXPECT_EQ(error_of("stencil:\n  type: star\n  order: 4\n  radius: 1\n"),
            "in.yaml:9:11: stencil.radius: radius 1 does not match order 4 (a star of order p has radius p/2)");
  EXPECT_EQ(error_of("stencil:\n  type: star\n  order: 4\n  weights: [1]\n"),
            "in.yaml:7:3: stencil.offsets: required key is missing (a list of [dx, dy, dz] integer offsets)");
  EXPECT_EQ(error_of("stencil:\n  type: star\n  order: 4\n  name: s\n"),
            "in.yaml:9:3: stencil.name: not used here: it applies only when the stencil is custom (stencil.offsets and "
            "stencil.weights)");
}

TEST(StencilInputErrors, Box) {
  const std::string why =
      "only the compact box of radius 1 and order 2 (9pt in 2D, 27pt in 3D) is built in: there is no single standard "
      "higher-order box Laplacian; give offsets and weights for the one you want";
  EXPECT_EQ(error_of("stencil: {type: box, radius: 2}\n"), "in.yaml:6:30: stencil.radius: expected 1: " + why);
  EXPECT_EQ(error_of("stencil: {type: box, order: 4}\n"), "in.yaml:6:29: stencil.order: expected 2: " + why);
  EXPECT_EQ(error_of("stencil: {type: box}\n", "grid:\n  n: [12, 12, 6]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n"),
            "in.yaml:6:10: stencil: stencil 27pt needs equal grid spacing in every dimension (check grid.n, grid.length, "
            "grid.periodic)");
}

TEST(StencilInputErrors, CustomEntriesPointAtTheirLine) {
  const std::string offsets =
      "stencil:\n"
      "  offsets:\n"
      "    - [0, 0, 0]\n"   // line 8
      "    - [-1, 0, 0]\n"  // line 9
      "    - [1, 0, 0]\n";  // line 10
  EXPECT_EQ(error_of(offsets + "    - [-1, 0, 0]\n  weights: [-2, 1, 1, 0]\n"),
            "in.yaml:11:7: stencil.offsets: entry 4 repeats the offset [-1, 0, 0] of entry 2 (every offset must appear once)");
  EXPECT_EQ(error_of(offsets + "    - [0, 1]\n  weights: [-2, 1, 1, 0]\n"),
            "in.yaml:11:7: stencil.offsets: entry 4: expected 3 integers [dx, dy, dz] (the grid is 3D)");
  EXPECT_EQ(error_of(offsets + "    - [0, 1.5, 0]\n  weights: [-2, 1, 1, 0]\n"),
            "in.yaml:11:7: stencil.offsets: entry 4: expected 3 integers [dx, dy, dz] (the grid is 3D)");
  EXPECT_EQ(error_of(offsets + "  weights: [-2, 1, one]\n"), "in.yaml:11:20: stencil.weights: entry 3: expected a finite number");
  EXPECT_EQ(error_of(offsets + "  weights: [-2, 1, .inf]\n"), "in.yaml:11:20: stencil.weights: entry 3: expected a finite number");
  EXPECT_EQ(error_of(offsets + "  weights: [-2, 1]\n"),
            "in.yaml:11:12: stencil.weights: expected one weight per offset, got 3 offsets and 2 weights");
  EXPECT_EQ(error_of(offsets + "  weights: [0, 0, 0.0]\n"),
            "in.yaml:11:12: stencil.weights: every weight is 0, expected at least one that is not (the operator would do "
            "nothing)");
  EXPECT_EQ(error_of(offsets), "in.yaml:7:3: stencil.weights: required key is missing (a list of numbers, one per offset)");
  EXPECT_EQ(error_of("stencil:\n  offsets: []\n  weights: []\n"),
            "in.yaml:7:12: stencil.offsets: expected a non-empty list of [dx, dy, dz] integer offsets");
  EXPECT_EQ(error_of("stencil:\n  offsets: [[0, 0, 0], [1, 0, 0], [0, 0, 1]]\n  weights: [-2, 1, 1]\n", kBase2),
            "in.yaml:7:13: stencil.offsets: entry 1: expected 2 integers [dx, dy] (the grid is 2D)");
}

TEST(StencilInputErrors, CustomNameAndScaling) {
  const std::string three = "stencil:\n  offsets: [[0, 0, 0], [-1, 0, 0], [1, 0, 0]]\n  weights: [-2, 1, 1]\n";
  EXPECT_EQ(error_of(three + "  name: 7pt\n"),
            "in.yaml:9:9: stencil.name: \"7pt\" already names a builtin or registered stencil; choose another name");
  EXPECT_EQ(error_of(three + "  name: star4\n"),
            "in.yaml:9:9: stencil.name: \"star4\" already names a builtin or registered stencil; choose another name");
  EXPECT_EQ(error_of(three + "  derivative: sometimes\n"),
            "in.yaml:9:15: stencil.derivative: expected 0, 1 or 2 (the derivative the weights approximate: they are divided "
            "by h^derivative), got \"sometimes\"");
  EXPECT_EQ(error_of(three + "  derivative: 3\n"),
            "in.yaml:9:15: stencil.derivative: expected 0, 1 or 2 (the derivative the weights approximate: they are divided "
            "by h^derivative), got 3");
  EXPECT_EQ(error_of(three + "  divide_by_h2: false\n"),
            "in.yaml:9:17: stencil.divide_by_h2: replaced by stencil.derivative (the derivative the unit-spacing weights "
            "approximate): divide_by_h2: true is derivative: 2 (the default), divide_by_h2: false is derivative: 0 (weights "
            "used as given)");
  EXPECT_EQ(error_of(three + "  type: star\n"),
            "in.yaml:9:3: stencil.type: not used here: it applies only when the stencil is a family (stencil.type star or box)");
  const std::string xz = "stencil:\n  offsets: [[0, 0, 0], [-1, 0, 0], [0, 0, 1]]\n  weights: [-2, 1, 1]\n";
  EXPECT_EQ(error_of(xz, "grid:\n  n: [12, 12, 12]\n  length: [1, 1, 2]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n"),
            "in.yaml:8:3: stencil.derivative: weights for unit spacing are divided by h^2, which needs equal grid spacing in "
            "the dimensions the stencil reaches (x, z; check grid.n, grid.length, grid.periodic); or give the weights for "
            "this grid with derivative: 0");
}

TEST(StencilInputErrors, StabilityLimitOfACustomStencil) {
  // A lone growth term limits nothing: cfl has no limit to be a fraction of, dt is free.
  const std::string growth = "stencil: {offsets: [[0, 0, 0]], weights: [0.1], derivative: 0}\n";
  EXPECT_EQ(error_of(growth),
            "in.yaml:5:8: physics.cfl: stencil custom sets no stability limit (every mode grows with the equation or decays "
            "at any dt), so no fraction of it is a time step; give physics.dt");
  InputFiles f;
  EXPECT_EQ(test::heat_config(f.write("grid:\n  n: [12, 12, 12]\nphysics:\n  alpha: 1.0\n  dt: 5.0\n" + growth), {}).dt, 5.0);
  // Upwind advection (derivative 1): dt_max = h / alpha with h = 1/12.
  const core::Config c =
      test::heat_config(f.write(kBase3 + "stencil: {offsets: [[0, 0, 0], [-1, 0, 0]], weights: [-1, 1], derivative: 1}\n"), {});
  EXPECT_NEAR(c.dt_max, 1.0 / 12, 1e-14);
  EXPECT_EQ(c.dt, 0.5 * c.dt_max);
}

TEST(StencilInputErrors, OverridesNameTheOverride) {
  EXPECT_EQ(error_of("stencil: 7pt\n", kBase3, {"stencil={offsets: [[0,0,0], [0,0,0]], weights: [0, 0]}"}),
            "--set stencil={offsets: [[0,0,0], [0,0,0]], weights: [0, 0]}: stencil.offsets: entry 2 repeats the offset "
            "[0, 0, 0] of entry 1 (every offset must appear once)");
  EXPECT_EQ(error_of("stencil: 7pt\n", kBase3, {"stencil.type=star", "stencil.order=5"}),
            "--set stencil.order=5: stencil.order: expected 2, 4, 6 or 8, got 5");
}

}  // namespace
}  // namespace cartex
