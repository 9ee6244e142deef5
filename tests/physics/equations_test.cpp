// The registry of equations (physics/equation.hpp): it lists heat and wave, every row is complete
// and its keys are documented (docs/input.md, docs/equations.md); heat's and wave's rows keep today's
// keys, stability limits (bit for bit), exact sine-mode solutions and checkpoint names (old
// checkpoints load); an unknown equation is refused with the known names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "cartex/core/error.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex {
namespace {

std::string read_doc(const std::string& name) {
  std::ifstream f(std::string(CARTEX_DOCS_DIR) + "/" + name);
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

core::GlobalGrid grid3() {
  core::GlobalGrid g;
  g.dim = 3;
  g.n = {12, 10, 8};
  g.length = {1.2, 1.0, 0.8};  // equal spacing (the box stencils need it)
  return g;
}

core::PhysicsValues values(const std::string& key, double x) { return {{key, core::PhysicsValue{{x}, ""}}}; }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(Equations, TheRegistryListsEveryEquation) {
  EXPECT_EQ(physics::equation_names(), (std::vector<std::string>{"heat", "wave", "advection-diffusion", "gray-scott"}));
  EXPECT_STREQ(physics::find_equation("gray-scott").app, "grayscott3d");
  EXPECT_STREQ(physics::find_equation("advection-diffusion").app, "advect3d");
  EXPECT_STREQ(physics::find_equation("heat").app, "heat3d");
  EXPECT_STREQ(physics::find_equation("wave").app, "wave3d");
}

TEST(Equations, EveryRowIsComplete) {
  const std::regex dataset("[A-Za-z0-9_]+");
  std::set<std::string> names, apps;
  for (const physics::Equation* eq : physics::equations()) {
    SCOPED_TRACE(eq->name);
    EXPECT_TRUE(names.insert(eq->name).second);
    EXPECT_TRUE(apps.insert(eq->app).second);
    EXPECT_NE(std::string(eq->title), "");
    EXPECT_NE(std::string(eq->pde), "");
    EXPECT_NE(std::string(eq->limit_text), "");
    EXPECT_FALSE(eq->keys.empty());
    for (const auto& k : eq->keys) {
      EXPECT_FALSE(k.name.empty() || k.type.empty() || k.def.empty() || k.meaning.empty() || k.expected.empty() ||
                   k.quantity.empty())
          << k.name;
      EXPECT_TRUE(k.name != "dt" && k.name != "cfl") << "physics.dt and physics.cfl are every equation's";
      EXPECT_TRUE(k.required() || !k.default_numbers.empty() || k.kind == core::PhysicsKey::Kind::kMapping) << k.name;
    }
    EXPECT_NE(eq->dt_max, nullptr);
    EXPECT_NE(eq->make_update, nullptr);
    ASSERT_FALSE(eq->fields.empty());
    EXPECT_EQ(eq->fields.front(), "u");
    const std::vector<std::string> state = physics::state_names(*eq);
    for (const auto& s : state) EXPECT_TRUE(std::regex_match(s, dataset)) << s;
    EXPECT_EQ(std::set<std::string>(state.begin(), state.end()).size(), state.size()) << "a dataset named twice";
    // A two-level integrator holds each field's previous level too, and starts by filling it.
    const bool two_levels = eq->integrator == core::Integrator::kLeapfrog;
    EXPECT_EQ(state.size(), (two_levels ? 2 : 1) * eq->fields.size());
    EXPECT_EQ(eq->make_start != nullptr, two_levels);
    EXPECT_FALSE(eq->initial_conditions.empty());
    for (const auto& init : eq->initial_conditions) EXPECT_TRUE(init == "sine" || init == "gaussian") << init;
    // A row with its own initial state may have fields beyond u; one without fills u alone.
    EXPECT_TRUE(eq->fill_initial != nullptr || eq->fields.size() == 1);
  }
}

TEST(Equations, EveryKeyAndRowIsDocumented) {
  const std::string input = read_doc("input.md"), equations = read_doc("equations.md");
  ASSERT_FALSE(input.empty()) << "docs/input.md not found in " << CARTEX_DOCS_DIR;
  ASSERT_FALSE(equations.empty()) << "docs/equations.md not found in " << CARTEX_DOCS_DIR;
  for (const physics::Equation* eq : physics::equations()) {
    for (const auto& k : eq->keys)
      EXPECT_NE(input.find("| `physics." + k.name + "` |"), std::string::npos) << eq->name << ": physics." << k.name;
    EXPECT_NE(equations.find(std::string("| ") + eq->name + " | " + eq->app + " |"), std::string::npos) << eq->name;
  }
}

TEST(Equations, UnknownNamesAreRefusedWithTheKnownOnes) {
  try {
    physics::find_equation("poisson");
    ADD_FAILURE() << "find_equation(\"poisson\") did not throw";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "unknown equation \"poisson\" (expected one of: heat, wave, advection-diffusion, gray-scott)");
  }
}

// Old checkpoints hold these datasets: the names must never change.
TEST(Equations, CheckpointNamesOfTheState) {
  EXPECT_EQ(physics::state_names(physics::find_equation("heat")), (std::vector<std::string>{"u"}));
  EXPECT_EQ(physics::state_names(physics::find_equation("wave")), (std::vector<std::string>{"u", "u_previous"}));
}

TEST(Equations, StabilityLimitsAreTodaysBitForBit) {
  const core::GlobalGrid g = grid3();
  for (const char* name : {"7pt", "27pt"}) {
    const core::Stencil s = core::make_builtin_stencil(name, g);
    const double rho = s.spectral_radius();
    EXPECT_TRUE(same_bits(physics::find_equation("heat").dt_max(s, values("alpha", 0.3)).dt_max, 2.0 / (0.3 * rho))) << name;
    EXPECT_TRUE(same_bits(physics::find_equation("wave").dt_max(s, values("speed", 1.7)).dt_max, 2.0 / (1.7 * std::sqrt(rho)))) << name;
  }
}

TEST(Equations, SineModeAmplitudes) {
  core::Config c;
  c.grid = grid3();
  c.stencil = core::make_builtin_stencil("7pt", c.grid);
  c.init.amplitude = 2.0;
  c.dt = 1e-4;
  const double lambda = -5.0;
  c.physics = values("alpha", 0.5);
  const physics::Equation& heat = physics::find_equation("heat");
  EXPECT_EQ(heat.sine_amplitude(c, lambda, 0, 2.0), 2.0);
  EXPECT_DOUBLE_EQ(heat.sine_amplitude(c, lambda, 3, 2.0), 2.0 * std::pow(1.0 - 1e-4 * 0.5 * 5.0, 3));
  c.physics = values("speed", 2.0);
  const physics::Equation& wave = physics::find_equation("wave");
  const double w_dt = std::acos(1.0 - 0.5 * 1e-8 * 4.0 * 5.0);
  EXPECT_EQ(wave.sine_amplitude(c, lambda, 0, 2.0), 2.0);
  EXPECT_DOUBLE_EQ(wave.sine_amplitude(c, lambda, 7, 2.0), 2.0 * std::cos(7 * w_dt));
  // The amplitude of the input's mode: lambda is the stencil's symbol there.
  c.physics = values("alpha", 0.5);
  const double at_zero = physics::sine_mode_amplitude(heat, c, 0);
  EXPECT_EQ(at_zero, 2.0);
  EXPECT_LT(physics::sine_mode_amplitude(heat, c, 10), at_zero);
}

// The loader's view: the row's keys and limit, and the keys of the other rows for the message
// "unknown key for the wave equation".
TEST(Equations, LoaderInput) {
  const core::EquationInput heat = physics::loader_input(physics::find_equation("heat"));
  EXPECT_EQ(heat.name, "heat");
  ASSERT_EQ(heat.keys.size(), 1u);
  EXPECT_EQ(heat.keys.front().name, "alpha");
  EXPECT_EQ(heat.foreign_keys, (std::vector<std::string>{"speed", "velocity", "advection", "Du", "Dv", "feed", "kill"}));
  EXPECT_EQ(heat.limit_text, "dt <= 2/(alpha*rho)");
  const core::EquationInput wave = physics::loader_input(physics::find_equation("wave"));
  EXPECT_EQ(wave.foreign_keys, (std::vector<std::string>{"alpha", "velocity", "advection", "Du", "Dv", "feed", "kill"}));
  EXPECT_EQ(wave.limit_text, "dt <= 2/(speed*sqrt(rho))");
}

}  // namespace
}  // namespace cartex
