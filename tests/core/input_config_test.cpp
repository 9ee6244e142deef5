// The input layer below the apps: layered sources, removal of keys, yaml-cpp's own exceptions as
// located errors, the key table, and the resolved YAML in shortest round-trip form.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "cartex/core/config.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/input_keys.hpp"
#include "stencil_test_files.hpp"

namespace cartex {
namespace {

const std::string kBase = "grid:\n  n: [12, 10, 8]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n";

// Layers given as texts (no files): {name, text} in order.
core::InputSources layers(const std::vector<std::pair<std::string, std::string>>& files) {
  core::InputSources in;
  for (const auto& [name, text] : files) {
    in.files.push_back(name);
    in.texts[name] = text;
  }
  return in;
}

std::string error_of(const core::InputSources& in, core::Equation equation = core::Equation::kHeat) {
  try {
    core::load_config(in, equation);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(InputLayers, LaterFilesOverrideAndMerge) {
  const core::Config c = core::load_config(layers({{"a.yaml", kBase + "run: {steps: 7}\n"}, {"b.yaml", "physics:\n  cfl: 0.25\n"}}));
  EXPECT_EQ(c.alpha, 1.0);  // merged, not replaced
  EXPECT_DOUBLE_EQ(c.cfl, 0.25);
  EXPECT_EQ(c.steps, 7);
  EXPECT_EQ(c.source, "a.yaml + b.yaml");
}

TEST(InputLayers, NullRemovesAndErrorsNameTheirFile) {
  // A null in a later file removes the key: cfl gone, dt given instead.
  const core::Config c = core::load_config(layers({{"a.yaml", kBase}, {"b.yaml", "physics:\n  cfl: ~\n  dt: 1e-4\n"}}));
  EXPECT_EQ(c.dt, 1e-4);
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase}, {"b.yaml", "\n\nphysics:\n  cfl: 2\n"}})),
            "b.yaml:4:8: physics.cfl: expected a number in (0, 1], got 2");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase}, {"b.yaml", "\ngrid:\n  nx: 3\n"}})),
            "b.yaml:3:3: grid.nx: unknown key (expected one of: length, n, periodic)");
}

TEST(InputLayers, UnsetAndSetNull) {
  core::InputSources in = layers({{"a.yaml", kBase + "init:\n  modes: [2, 1, 1]\n"}});
  in.unsets = {"physics.cfl"};
  in.sets = {"physics.dt=1e-4", "init.type=gaussian", "init.modes=null"};
  const core::Config c = core::load_config(in);
  EXPECT_EQ(c.dt, 1e-4);
  EXPECT_EQ(c.init.type, "gaussian");
  in.sets.pop_back();
  EXPECT_EQ(error_of(in), "a.yaml:7:3: init.modes: not used here: it applies only when init.type is sine");
  in.unsets = {"physics.nope"};
  EXPECT_EQ(error_of(in), "--unset physics.nope: physics.nope: unknown key (expected one of: alpha, cfl, dt)");
}

TEST(InputErrors, YamlCppExceptionsAreLocated) {
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "? [a]: b\n"}})),
            "a.yaml:6:3: (top level): expected a plain key name, got a mapping as a key");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase}, {"b.yaml", "grid:\n  ? [x]\n  : 1\n"}})),
            "b.yaml:2:5: grid: expected a plain key name, got a list as a key");
}

// The fuzzer's first finding: yaml-cpp quotes the raw byte of a bad escape (here a NUL at the end of
// a flow list) and a newline into its message; every control byte of a message is shown escaped.
TEST(InputErrors, ControlBytesAreEscaped) {
  const char nul_input[] = "grid:\n  n: [12, 10, 8, 4]\0\nphysics:\n  alpha: 1.0\n  cfl: 0.5\nrun:\n  steps: 5\n";
  const std::string e = error_of(layers({{"a.yaml", std::string(nul_input, sizeof(nul_input) - 1)}}));
  EXPECT_EQ(e.find_first_of(std::string("\n\r\0", 3)), std::string::npos) << e;
  EXPECT_EQ(e.rfind("a.yaml:", 0), 0u) << e;
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "init:\n  type: \"si\\x01ne\\tx\"\n"}})),
            "a.yaml:7:9: init.type: expected sine or gaussian, got \"si\\x01ne\\tx\"");
  // A --set value with a control byte: tests/apps/comm_choices_test.cpp (comm.backend is checked by the app).
  EXPECT_EQ(core::escape_control(std::string("a\x7f\x1b[1m\x00z", 8)), "a\\x7f\\x1b[1m\\x00z");
}

// The fuzzer's second finding: an unknown key holding ':' (a plain YAML scalar "allreduce:id") made
// the key path unreadable; key names that are not plain are quoted.
TEST(InputErrors, UnknownKeysThatAreNotPlainNamesAreQuoted) {
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "comm:\n  allreduce:id: 1\n"}})),
            "a.yaml:7:3: comm.\"allreduce:id\": unknown key (expected one of: allreduce, backend, overlap)");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "\"a b.c\": 1\n"}})).substr(0, 22), "a.yaml:6:1: \"a b.c\": u");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "run_2-x: 1\n"}})).substr(0, 22), "a.yaml:6:1: run_2-x: u");
}

TEST(InputErrors, DirectoryAndOutputDir) {
  test::InputFiles f;
  const std::string file = f.write("x");
  const std::string dir = std::filesystem::path(file).parent_path().string();
  core::InputSources in;
  in.files = {dir};
  EXPECT_EQ(error_of(in), dir + ":1:1: (file): is a directory, not an input file");
  core::InputSources out = layers({{"a.yaml", kBase}});
  out.sets = {"output.dir=" + file + "/sub/out"};
  EXPECT_EQ(error_of(out), "--set output.dir=" + file + "/sub/out: output.dir: cannot create directory \"" + file +
                               "/sub/out\": " + file + " is a file, not a directory");
  EXPECT_FALSE(std::filesystem::exists(file + "/sub"));
}

TEST(InputKeys, TheTableIsConsistent) {
  for (const auto& k : core::input_keys()) {
    const core::Equation eq = k.equation.value_or(core::Equation::kHeat);
    EXPECT_EQ(core::find_input_key(k.path, eq), &k) << k.path;
    EXPECT_TRUE(core::is_input_path(k.path.substr(0, k.path.find('.')), eq)) << k.path;
    EXPECT_FALSE(k.type.empty() || k.def.empty() || k.meaning.empty()) << k.path;
    EXPECT_NE(core::input_keys_help(eq).find(k.path + "\n"), std::string::npos) << k.path;
  }
  EXPECT_EQ(core::find_input_key("physics.speed", core::Equation::kHeat), nullptr);
  EXPECT_EQ(core::input_key_children("physics", core::Equation::kWave), (std::vector<std::string>{"cfl", "dt", "speed"}));
}

TEST(ResolvedYaml, ShortestDigitsReloadToTheSameBits) {
  const core::Config c = core::load_config(layers({{"a.yaml", kBase + "init: {amplitude: 0.1}\n"}}));
  EXPECT_NE(c.resolved_yaml.find("\nboundary: {}\n"), std::string::npos) << c.resolved_yaml;
  EXPECT_NE(c.resolved_yaml.find("amplitude: 0.1\n"), std::string::npos) << c.resolved_yaml;
  const core::Config again = core::load_config(layers({{"r.yaml", c.resolved_yaml}}));
  EXPECT_EQ(std::memcmp(&c.dt, &again.dt, sizeof(double)), 0);
  EXPECT_EQ(again.resolved_yaml, c.resolved_yaml);
}

}  // namespace
}  // namespace cartex
