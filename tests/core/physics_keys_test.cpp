// The loader reads an equation's physics keys from its row's data (core::EquationInput): besides the
// positive numbers of heat and wave, a list per dimension (a velocity), a mapping the row checks
// itself, and a number or a mapping; every error located at the key, the values in the resolved
// YAML (which reloads to the same values), the stability limit from the row.
#include <gtest/gtest.h>

#include <string>

#include "cartex/core/config.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/input_keys.hpp"

namespace cartex {
namespace {

using Kind = core::PhysicsKey::Kind;

// A made-up equation with one key of each kind; dt_max = 1 / (rho * (1 + |v|_1)).
core::EquationInput drift() {
  core::EquationInput eq;
  eq.name = "drift";
  eq.keys = {
      {"velocity", Kind::kNumberList, "list of numbers, one per dimension", "required", {}, "drift velocity",
       "a list of numbers", "velocity", 0, {}},
      {"scheme", Kind::kMapping, "mapping {order: 1..4}", "-", {}, "the scheme", "a mapping {order: 1..4}", "scheme", 0,
       [](const core::PhysicsValue& v, int) {
         return v.mapping == "{order: 1}" || v.mapping == "{order: 2}" ? std::string() : "expected order 1 or 2, got " + v.mapping;
       }},
      {"alpha", Kind::kPositiveNumberOrMapping, "positive number or mapping", "0.5", {0.5}, "diffusivity",
       "a positive number or a mapping", "diffusivity", 0, {}},
  };
  eq.foreign_keys = {"speed"};
  eq.dt_max = [](const core::Stencil& s, const core::PhysicsValues& v) {
    double sum = 0;
    for (const double x : v.at("velocity").numbers) sum += x < 0 ? -x : x;
    return 1.0 / (s.spectral_radius() * (1.0 + sum));
  };
  eq.limit_text = "dt <= 1/(rho*(1+|v|))";
  return eq;
}

const std::string kGrid = "grid:\n  n: [8, 6]\n";

core::Config load(const std::string& text) {
  core::InputSources in;
  in.files = {"a.yaml"};
  in.texts["a.yaml"] = text;
  return core::load_config(in, drift());
}

std::string error_of(const std::string& text) {
  try {
    load(text);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(PhysicsKeys, EveryKindIsReadAndResolved) {
  const core::Config c = load(kGrid + "physics:\n  velocity: [1.5, -2]\n  scheme: {order: 2}\n  cfl: 0.5\n");
  EXPECT_EQ(c.equation, "drift");
  EXPECT_EQ(c.physics.at("velocity").numbers, (std::vector<double>{1.5, -2}));
  EXPECT_EQ(c.physics.at("scheme").mapping, "{order: 2}");
  EXPECT_EQ(core::physics_number(c, "alpha"), 0.5);  // the default
  EXPECT_DOUBLE_EQ(c.dt_max, 1.0 / (c.stencil.spectral_radius() * 4.5));
  EXPECT_DOUBLE_EQ(c.dt, 0.5 * c.dt_max);
  const core::Config again = load(c.resolved_yaml);
  EXPECT_EQ(again.physics.at("velocity").numbers, c.physics.at("velocity").numbers);
  EXPECT_EQ(again.physics.at("scheme").mapping, "{order: 2}");
  EXPECT_EQ(again.resolved_yaml, c.resolved_yaml);
  const core::Config field = load(kGrid + "physics:\n  velocity: [0, 0]\n  alpha: {layers: [1, 2]}\n  cfl: 0.5\n");
  EXPECT_EQ(field.physics.at("alpha").mapping, "{layers: [1, 2]}");
  EXPECT_THROW(core::physics_number(field, "alpha"), core::Error);
}

TEST(PhysicsKeys, ErrorsAreLocatedAtTheKey) {
  EXPECT_EQ(error_of(kGrid + "physics:\n  cfl: 0.5\n"),
            "a.yaml:4:3: physics.velocity: required key is missing (a list of numbers, the velocity)");
  EXPECT_EQ(error_of(kGrid + "physics:\n  velocity: [1, 2, 3]\n  cfl: 0.5\n"),
            "a.yaml:4:13: physics.velocity: expected 2 entries (a list of numbers (velocity)), got 3");
  EXPECT_EQ(error_of(kGrid + "physics:\n  velocity: [0, 0]\n  scheme: {order: 3}\n  cfl: 0.5\n"),
            "a.yaml:5:11: physics.scheme: expected order 1 or 2, got {order: 3}");
  EXPECT_EQ(error_of(kGrid + "physics:\n  velocity: [0, 0]\n  scheme: 1\n  cfl: 0.5\n"),
            "a.yaml:5:11: physics.scheme: expected a mapping {order: 1..4} (scheme)");
  EXPECT_EQ(error_of(kGrid + "physics:\n  velocity: [0, 0]\n  alpha: -1\n  cfl: 0.5\n"),
            "a.yaml:5:10: physics.alpha: expected a positive number or a mapping, got -1");
  EXPECT_EQ(error_of(kGrid + "physics:\n  velocity: [0, 0]\n  speed: 1\n  cfl: 0.5\n"),
            "a.yaml:5:3: physics.speed: unknown key for the drift equation (expected one of: alpha, cfl, dt, scheme, velocity)");
  EXPECT_EQ(error_of(kGrid + "physics:\n  velocty: [0, 0]\n  cfl: 0.5\n"),
            "a.yaml:4:3: physics.velocty: unknown key; did you mean velocity? (expected one of: alpha, cfl, dt, scheme, velocity)");
  EXPECT_EQ(error_of(kGrid), "a.yaml:1:1: physics: required section is missing (physics.velocity and physics.dt or physics.cfl)");
}

TEST(PhysicsKeys, TheKeysJoinTheTable) {
  const std::string help = core::input_keys_help(drift());
  for (const char* key : {"physics.velocity\n", "physics.scheme\n", "physics.alpha\n", "physics.dt\n"})
    EXPECT_NE(help.find(key), std::string::npos) << key;
  EXPECT_LT(help.find("physics.alpha\n"), help.find("physics.dt\n"));
  EXPECT_FALSE(core::find_input_key("physics.speed", drift()));
}

}  // namespace
}  // namespace cartex
