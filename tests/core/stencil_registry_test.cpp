// Stencils registered from C++: lookup through load_config, validation of the factory's result,
// and the names that cannot be registered. The registry is process-wide, so every test uses names
// of its own.
#include <gtest/gtest.h>

#include "cartex/core/config.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/stencil_registry.hpp"
#include "equation_inputs.hpp"
#include "stencil_test_files.hpp"

namespace cartex {
namespace {

const std::string kBase = "grid:\n  n: [12, 12, 12]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n";

// The 4th-order star, spelled out with its own (unconventional) point order.
core::Stencil cross13(const core::GlobalGrid& g) {
  core::Stencil s = core::make_star_stencil(4, g);
  std::swap(s.offsets[1], s.offsets[4]);
  std::swap(s.weights[1], s.weights[4]);
  s.name = "whatever the factory says";
  return s;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(StencilRegistry, RegisteredNameLoadsThroughTheInput) {
  core::register_stencil("reg_cross13", cross13, "4th-order star in another point order");
  EXPECT_TRUE(core::is_registered_stencil("reg_cross13"));
  test::InputFiles f;
  const core::Config c = test::heat_config(f.write(kBase + "stencil: reg_cross13\n"), {});
  const core::Stencil expected = cross13(c.grid);
  EXPECT_EQ(c.stencil.name, "reg_cross13");  // the registered name, not the factory's
  EXPECT_EQ(c.stencil.offsets, expected.offsets);
  EXPECT_EQ(c.stencil.weights, expected.weights);
  EXPECT_EQ(c.stencil.reach().lo, (std::array<int, 3>{2, 2, 2}));
  // The resolved YAML names it, so it reloads through the registry.
  EXPECT_NE(c.resolved_yaml.find("stencil: reg_cross13\n"), std::string::npos);

  bool listed = false;
  for (const auto& r : core::registered_stencils())
    if (r.name == "reg_cross13") listed = r.description == "4th-order star in another point order";
  EXPECT_TRUE(listed);
}

TEST(StencilRegistry, UnknownNamesListBuiltinsAndRegisteredNames) {
  core::register_stencil("reg_listed", cross13, "listed");
  test::InputFiles f;
  const std::string path = f.write(kBase + "stencil: nope\n");
  const std::string what = message_of([&] { test::heat_config(path, {}); });
  EXPECT_EQ(what.substr(0, path.size()), path);
  EXPECT_NE(what.find(":6:10: stencil: unknown stencil \"nope\" for a 3D grid (expected one of: 7pt, 27pt, "), std::string::npos)
      << what;
  EXPECT_NE(what.find("reg_listed"), std::string::npos) << what;
}

TEST(StencilRegistry, BuiltinNamesWinForTheirDimension) {
  // 9pt is reserved in every dimension, so it can never shadow or be shadowed.
  EXPECT_EQ(message_of([] { core::register_stencil("9pt", cross13, ""); }),
            "register_stencil: \"9pt\" is the name of a builtin stencil (5pt, 9pt, 7pt, 27pt, star2, star4, star6, star8); "
            "choose another name");
  EXPECT_EQ(message_of([] { core::register_stencil("star8", cross13, ""); }).substr(0, 47),
            "register_stencil: \"star8\" is the name of a buil");
}

TEST(StencilRegistry, RejectsTakenEmptyNamesAndEmptyFactories) {
  core::register_stencil("reg_once", cross13, "the first");
  EXPECT_EQ(message_of([] { core::register_stencil("reg_once", cross13, "the second"); }),
            "register_stencil: \"reg_once\" is already registered (the first); choose another name");
  EXPECT_EQ(message_of([] { core::register_stencil("", cross13, ""); }), "register_stencil: the name is empty");
  EXPECT_EQ(message_of([] { core::register_stencil("reg_empty", core::StencilFactory(), ""); }),
            "register_stencil: \"reg_empty\" has no factory (an empty std::function)");
  EXPECT_FALSE(core::is_registered_stencil("reg_empty"));
}

TEST(StencilRegistry, FactoryResultIsValidated) {
  core::register_stencil("reg_twice", [](const core::GlobalGrid& g) {
    core::Stencil s = core::make_star_stencil(2, g);
    s.offsets[2] = s.offsets[1];
    return s;
  }, "a duplicate offset");
  core::register_stencil("reg_2d_only", [](const core::GlobalGrid& g) {
    if (g.dim != 2) throw std::invalid_argument("only 2D grids");
    return core::make_star_stencil(2, g);
  }, "2D only");
  core::register_stencil("reg_flat", [](const core::GlobalGrid& g) {
    core::Stencil s = core::make_star_stencil(2, g);
    s.dim = 2;
    return s;
  }, "says 2D on any grid");
  test::InputFiles f;
  auto error = [&](const std::string& name) {
    const std::string path = f.write(kBase + "stencil: " + name + "\n");
    const std::string what = message_of([&] { test::heat_config(path, {}); });
    return what.rfind(path, 0) == 0 ? "in.yaml" + what.substr(path.size()) : what;
  };
  EXPECT_EQ(error("reg_twice"),
            "in.yaml:6:10: stencil: registered stencil \"reg_twice\" is invalid: entry 3 repeats the offset [-1, 0, 0] of "
            "entry 2 (every offset must appear once)");
  EXPECT_EQ(error("reg_2d_only"), "in.yaml:6:10: stencil: registered stencil \"reg_2d_only\" cannot be built for this grid: only 2D grids");
  EXPECT_EQ(error("reg_flat"), "in.yaml:6:10: stencil: registered stencil \"reg_flat\" is invalid: the stencil is 2D but the grid is 3D");
}

TEST(StencilRegistry, CustomStencilsCannotTakeARegisteredName) {
  core::register_stencil("reg_taken", cross13, "");
  test::InputFiles f;
  const std::string path =
      f.write(kBase + "stencil:\n  name: reg_taken\n  offsets: [[0, 0, 0], [-1, 0, 0], [1, 0, 0]]\n  weights: [-2, 1, 1]\n");
  EXPECT_NE(message_of([&] { test::heat_config(path, {}); })
                .find(":7:9: stencil.name: \"reg_taken\" already names a builtin or registered stencil; choose another name"),
            std::string::npos);
}

}  // namespace
}  // namespace cartex
