// The input layer below the apps: layered sources, removal of keys, yaml-cpp's own exceptions as
// located errors, duplicate and unknown keys, per-dimension scalars, the location of every key read,
// the key table, and the resolved YAML in shortest round-trip form.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>

#include "cartex/core/config.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/input_keys.hpp"
#include "equation_inputs.hpp"
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

std::string error_of(const core::InputSources& in, const std::string& equation = "heat") {
  try {
    core::load_config(in, test::equation_input(equation));
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(InputLayers, LaterFilesOverrideAndMerge) {
  const core::Config c = test::heat_config(layers({{"a.yaml", kBase + "run: {steps: 7}\n"}, {"b.yaml", "physics:\n  cfl: 0.25\n"}}));
  EXPECT_EQ(core::physics_number(c, "alpha"), 1.0);  // merged, not replaced
  EXPECT_DOUBLE_EQ(c.cfl, 0.25);
  EXPECT_EQ(c.steps, 7);
  EXPECT_EQ(c.source, "a.yaml + b.yaml");
}

TEST(InputLayers, NullRemovesAndErrorsNameTheirFile) {
  // A null in a later file removes the key: cfl gone, dt given instead.
  const core::Config c = test::heat_config(layers({{"a.yaml", kBase}, {"b.yaml", "physics:\n  cfl: ~\n  dt: 1e-4\n"}}));
  EXPECT_EQ(c.dt, 1e-4);
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase}, {"b.yaml", "\n\nphysics:\n  cfl: 2\n"}})),
            "b.yaml:4:8: physics.cfl: expected a number in (0, 1], got 2");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase}, {"b.yaml", "\ngrid:\n  nx: 3\n"}})),
            "b.yaml:3:3: grid.nx: unknown key; did you mean n? (expected one of: length, n, periodic)");
}

TEST(InputLayers, UnsetAndSetNull) {
  core::InputSources in = layers({{"a.yaml", kBase + "init:\n  modes: [2, 1, 1]\n"}});
  in.unsets = {"physics.cfl"};
  in.sets = {"physics.dt=1e-4", "init.type=gaussian", "init.modes=null"};
  const core::Config c = test::heat_config(in);
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
            "a.yaml:7:3: comm.\"allreduce:id\": unknown key (expected one of: allreduce, backend, gpu_aware_mpi, overlap)");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "\"a b.c\": 1\n"}})).substr(0, 22), "a.yaml:6:1: \"a b.c\": u");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "run_2-x: 1\n"}})).substr(0, 22), "a.yaml:6:1: run_2-x: u");
}

// yaml-cpp keeps the first of two equal keys in one mapping and drops the second without a word.
TEST(InputErrors, DuplicateKeysInOneMappingNameBothPlaces) {
  const std::string why = " (a mapping holds each key once)";
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "run: {steps: 10}\ninit: {amplitude: 2}\nrun: {steps: 20, progress_every: 5}\n"}})),
            "a.yaml:8:1: run: duplicate key: first given at a.yaml:6:1" + why);
  EXPECT_EQ(error_of(layers({{"a.yaml", "grid:\n  n: [12, 10, 8]\n  n: [4, 4, 4]\nphysics: {alpha: 1.0, cfl: 0.5}\n"}})),
            "a.yaml:3:3: grid.n: duplicate key: first given at a.yaml:2:3" + why);
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase}, {"b.yaml", "run:\n  steps: 3\n  steps: 4\n"}})),
            "b.yaml:3:3: run.steps: duplicate key: first given at b.yaml:2:3" + why);
  core::InputSources in = layers({{"a.yaml", kBase}});
  in.sets = {"stencil={type: star, order: 2, order: 4}"};
  EXPECT_EQ(error_of(in), "--set stencil={type: star, order: 2, order: 4}: stencil.order: duplicate key: first given at an "
                          "earlier place of the value" + why);
  // Layers and overrides still replace keys on purpose.
  in = layers({{"a.yaml", kBase + "run: {steps: 10}\n"}, {"b.yaml", "run: {steps: 20}\n"}});
  EXPECT_EQ(test::heat_config(in).steps, 20);
  in.sets = {"run.steps=30"};
  EXPECT_EQ(test::heat_config(in).steps, 30);
}

TEST(InputErrors, EmptyFileIsCalledEmpty) {
  test::InputFiles f;
  core::InputSources in;
  in.files = {f.write("")};
  EXPECT_EQ(error_of(in), in.files[0] + ":1:1: (file): the input file is empty (0 bytes)");
  // A layer of comments only is an empty mapping, on purpose.
  in.files = {f.write(kBase), f.write("# nothing to change\n")};
  EXPECT_EQ(core::physics_number(test::heat_config(in), "alpha"), 1.0);
}

// yaml-cpp's own depth guard says only "bad file"; the reader's limit lies well inside it.
TEST(InputErrors, DeepNestingIsLocated) {
  const std::string beyond_yaml_cpp = "init:\n  modes: " + std::string(100000, '[') + std::string(100000, ']') + "\n";
  const std::string e = error_of(layers({{"a.yaml", kBase + beyond_yaml_cpp}}));
  EXPECT_EQ(e.rfind("a.yaml:7:", 0), 0u) << e;
  EXPECT_NE(e.find(": (syntax): invalid YAML: mappings and lists nested deeper than 100 levels"), std::string::npos) << e;
  const std::string blocks = "init:\n  modes:\n    " + [] {
    std::string dashes;
    for (int i = 0; i < 100000; ++i) dashes += "- ";
    return dashes;
  }() + "1\n";
  EXPECT_NE(error_of(layers({{"a.yaml", kBase + blocks}})).find("nested deeper than 100 levels"), std::string::npos);
  // Within yaml-cpp's limit: at the first list too deep, the 99th inside init.modes (root, init, modes: 3 levels).
  const std::string within = "init:\n  modes: " + std::string(150, '[') + std::string(150, ']') + "\n";
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + within}})),
            "a.yaml:7:108: init.modes: mappings and lists nested deeper than 100 levels");
  core::InputSources in = layers({{"a.yaml", kBase}});
  in.sets = {"init.modes=" + std::string(150, '[') + std::string(150, ']')};
  EXPECT_EQ(error_of(in), "--set " + in.sets[0] + ": init.modes: mappings and lists nested deeper than 100 levels");
}

// Aliases share their node as parsed: the checks above visit each once per key path and depth, so a
// cycle ends at the nesting limit and a mapping aliased into another section is checked against that
// section's keys; then each use becomes a copy, and nested aliases (10^15 values if expanded) stop at
// the limit on the values they add, located at the use being copied.
TEST(InputErrors, AliasesAreCheckedOncePerPlace) {
  std::string laughs = "init:\n  modes: [&a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]";
  for (int i = 1; i < 15; ++i) {
    laughs += ", &a" + std::to_string(i) + " [*a" + std::to_string(i - 1);
    for (int j = 1; j < 10; ++j) laughs += ", *a" + std::to_string(i - 1);
    laughs += "]";
  }
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + laughs + "]\n"}})),
            "a.yaml:7:159: init.modes: aliases add more than 100000 values (each use of one copies its anchor's value)");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "init:\n  modes: &x [1, *x]\n"}})),
            "a.yaml:7:10: init.modes: mappings and lists nested deeper than 100 levels");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "init: &i {type: sine}\nrun: *i\n"}})),
            "a.yaml:6:11: run.type: unknown key (expected one of: end_time, progress_every, steps, stopped_exit_code, "
            "wall_time_limit, wall_time_margin)");
}

// A misspelt required key was reported as the required key missing; unknown keys are checked first,
// everywhere, and name the nearest known key when one is close.
TEST(InputErrors, UnknownKeysComeFirstAndSuggestTheNearest) {
  EXPECT_EQ(error_of(layers({{"a.yaml", "grid:\n  n: [12, 10, 8]\nphysics:\n  alpah: 1.0\n  cfl: 0.5\n"}})),
            "a.yaml:4:3: physics.alpah: unknown key; did you mean alpha? (expected one of: alpha, cfl, dt)");
  EXPECT_EQ(error_of(layers({{"a.yaml", "grid:\n  n: [0, 10, 8]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\nrun: {stpes: 3}\n"}})),
            "a.yaml:6:7: run.stpes: unknown key; did you mean steps? (expected one of: end_time, progress_every, steps, "
            "stopped_exit_code, wall_time_limit, wall_time_margin)");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "halo:\n  temporal_blocking: {tile: 8}\n"}})),
            "a.yaml:7:23: halo.temporal_blocking.tile: unknown key; did you mean tile_y? (expected one of: tile_y)");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "init:\n  Type: sine\n"}})),
            "a.yaml:7:3: init.Type: unknown key; did you mean type? (expected one of: amplitude, center, modes, type, width)");
  // Nothing close: no guess. A dotted key is one unknown key even when it spells a path.
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "run: {speed: 3}\n"}})),
            "a.yaml:6:7: run.speed: unknown key (expected one of: end_time, progress_every, steps, stopped_exit_code, "
            "wall_time_limit, wall_time_margin)");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase}}), "wave"),
            "a.yaml:4:3: physics.alpha: unknown key for the wave equation (expected one of: cfl, dt, speed)");
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "run.steps: 3\n"}})),
            "a.yaml:6:1: \"run.steps\": unknown key (expected one of: boundary, comm, grid, halo, init, output, physics, "
            "processes, run, stencil)");
  core::InputSources in = layers({{"a.yaml", kBase}});
  in.sets = {"comm.backed=p2p"};
  EXPECT_EQ(error_of(in), "--set comm.backed=p2p: comm.backed: unknown key; did you mean backend? (expected one of: "
                          "allreduce, backend, gpu_aware_mpi, overlap)");
  in.sets = {"grid.n.x=4"};
  EXPECT_EQ(error_of(in), "--set grid.n.x=4: grid.n.x: unknown key (grid.n takes a value, not keys)");
  in.sets = {};
  in.unsets = {"physcs.cfl"};
  EXPECT_EQ(error_of(in), "--unset physcs.cfl: physcs: unknown key; did you mean physics? (expected one of: boundary, "
                          "comm, grid, halo, init, output, physics, processes, run, stencil)");
}

// docs/input.md: per-dimension keys take one value for every dimension; processes.dims refused it.
TEST(InputPerDimension, ProcessesDimsTakeOneValueForEveryDimension) {
  core::InputSources in = layers({{"a.yaml", kBase}});
  in.sets = {"processes.dims=0"};
  EXPECT_EQ(test::heat_config(in).process_dims, (std::array<int, 3>{0, 0, 0}));
  in.sets = {"processes.dims=2"};
  EXPECT_EQ(test::heat_config(in).process_dims, (std::array<int, 3>{2, 2, 2}));
  const core::Config flat = test::heat_config(layers({{"a.yaml", kBase + "processes: {dims: 2}\n"}, {"b.yaml", "grid: {n: [8, 6]}\n"}}));
  EXPECT_EQ(flat.process_dims, (std::array<int, 3>{2, 2, 1}));
  in.sets = {"processes.dims=-1"};
  EXPECT_EQ(error_of(in), "--set processes.dims=-1: processes.dims: expected non-negative entries (0 = chosen by MPI), got -1");
  in.sets = {"processes.dims=[1, 1]"};
  EXPECT_EQ(error_of(in), "--set processes.dims=[1, 1]: processes.dims: expected a list of 3 entries (non-negative integers, "
                          "0 = chosen by MPI), one per dimension of grid.n");
}

// Checks after loading (the app's, against the rank count or the backends) name where any key was given.
TEST(InputLocations, EveryKeyReadIsLocated) {
  core::InputSources in = layers({{"a.yaml", kBase + "output:\n  keep_checkpoints: 3\n"}, {"b.yaml", "run:\n  steps: 4\n"}});
  in.sets = {"init.amplitude=2"};
  const core::Config c = test::heat_config(in);
  EXPECT_EQ(core::input_error_text(c, "output.keep_checkpoints", "x"), "a.yaml:7:21: output.keep_checkpoints: x");
  EXPECT_EQ(core::input_error_text(c, "run.steps", "x"), "b.yaml:2:10: run.steps: x");
  EXPECT_EQ(core::input_error_text(c, "init.amplitude", "x"), "--set init.amplitude=2: init.amplitude: x");
  // Absent: at its mapping, or the file's start without one; a key the loader never reads: its section's.
  EXPECT_EQ(core::input_error_text(c, "physics.dt", "x"), "a.yaml:4:3: physics.dt: x");
  EXPECT_EQ(core::input_error_text(c, "halo.steps_per_exchange", "x"), "a.yaml:1:1: halo.steps_per_exchange: x");
  EXPECT_EQ(core::input_error_text(c, "output.keep_checkpoints.deeper", "x"), "a.yaml:7:21: output.keep_checkpoints.deeper: x");
  for (const auto& k : core::input_keys(test::equation_input("heat")))  // every key that always applies is read, so located
    if (k.applies.empty())
      EXPECT_EQ(c.where.count(k.path), 1u) << k.path;
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

// Issue 35: a FIFO as input waited forever, a device would be read without end; stat says what a path is
// before it is opened.
TEST(InputErrors, InputFilesAreRegularFiles) {
  test::InputFiles f;
  const std::string file = f.write(kBase);
  const std::filesystem::path dir = std::filesystem::path(file).parent_path();
  const std::string fifo = (dir / "fifo.yaml").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  core::InputSources in;
  in.files = {fifo};
  EXPECT_EQ(error_of(in), fifo + ":1:1: (file): is a FIFO, not a regular file");
  in.files = {file, "/dev/null"};
  EXPECT_EQ(error_of(in), "/dev/null:1:1: (file): is a character device, not a regular file");
  const std::string link = (dir / "link.yaml").string();
  std::filesystem::create_symlink(file, link);  // a link to a regular file is one
  in.files = {link};
  EXPECT_EQ(core::physics_number(test::heat_config(in), "alpha"), 1.0);
}

// Issue 35: .nan and .inf ran to a NaN field (and a checkpoint whose input did not read back); every
// number read is finite.
TEST(InputNumbers, NonFiniteNumbersAreRefused) {
  const auto error_with = [](const std::string& extra) { return error_of(layers({{"a.yaml", kBase + extra}})); };
  EXPECT_EQ(error_with("init: {amplitude: .nan}\n"), "a.yaml:6:19: init.amplitude: expected a finite number, got \".nan\"");
  EXPECT_EQ(error_with("init: {type: gaussian, center: [0.5, -.inf, 0.5]}\n"),
            "a.yaml:6:32: init.center: expected finite numbers (physical coordinates) in every entry");
  EXPECT_EQ(error_with("run: {end_time: .inf}\n"),
            "a.yaml:6:17: run.end_time: expected a positive number (simulated time to stop at), got \".inf\"");
  core::InputSources in = layers({{"a.yaml", kBase}});
  in.sets = {"grid.length=.inf"};
  EXPECT_EQ(error_of(in), "--set grid.length=.inf: grid.length: expected positive numbers (one value or a list of 3)");
  const std::string walls = "grid:\n  n: [12, 10, 8]\n  periodic: [false, true, true]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n";
  EXPECT_EQ(error_of(layers({{"a.yaml", walls + "boundary:\n  x: [.nan, 0]\n"}})),
            "a.yaml:8:6: boundary.x: expected a list [low, high] of two finite numbers (Dirichlet values), periodic, or a "
            "mapping {low: ..., high: ...}, got an entry \".nan\"");
  EXPECT_EQ(error_of(layers({{"a.yaml", walls + "boundary:\n  x: {low: {neumann: .NaN}}\n"}})),
            "a.yaml:8:12: boundary.x.low: expected neumann: a number (the outward normal derivative, 0 = insulated), got "
            ".NaN");
  const std::string gaussian = "grid:\n  n: [12, 10, 8]\nphysics:\n  alpha: {gaussian: {peak: 2, center: [.nan, 0.5, 0.5]}}\n  cfl: 0.5\n";
  EXPECT_EQ(error_of(layers({{"a.yaml", gaussian}})),
            "a.yaml:4:39: physics.alpha.gaussian.center: expected a list of finite numbers (physical coordinates), got an "
            "entry \".nan\"");
  in.sets = {"physics.cfl=.nan"};
  EXPECT_EQ(error_of(in), "--set physics.cfl=.nan: physics.cfl: expected a number in (0, 1] (fraction of the stability limit), "
                          "got \".nan\"");
}

// Issue 35: yaml-cpp read 010 as 8 and 0x10 as 16 (YAML 1.1); integers are decimal as YAML 1.2 reads them.
TEST(InputNumbers, IntegersAreDecimal) {
  core::InputSources in = layers({{"a.yaml", kBase + "run: {steps: 010}\ninit: {modes: [+2, 010, 1]}\n"}});
  const core::Config c = test::heat_config(in);
  EXPECT_EQ(c.steps, 10);
  EXPECT_EQ(c.init.modes, (std::array<int, 3>{2, 10, 1}));
  for (const std::string steps : {"0x10", "0o10", "1e3", "+-1", "1_000"}) {
    in.sets = {"run.steps=" + steps};
    EXPECT_EQ(error_of(in), "--set run.steps=" + steps + ": run.steps: expected a non-negative integer (time steps), got \"" +
                                steps + "\"");
  }
  in.sets = {"grid.n=[0x10, 8, 8]"};
  EXPECT_EQ(error_of(in), "--set grid.n=[0x10, 8, 8]: grid.n: expected a list of 2 or 3 positive integers (cells per "
                          "dimension), got an entry \"0x10\"");
  in.sets = {"init.modes=[1, 0x2, 1]"};
  EXPECT_EQ(error_of(in), "--set init.modes=[1, 0x2, 1]: init.modes: expected positive integers in every entry");
  in.sets = {"stencil={offsets: [[0, 0, 0], [0x1, 0, 0]], weights: [-1, 1]}"};
  EXPECT_EQ(error_of(in), "--set " + in.sets[0] + ": stencil.offsets: entry 2: expected 3 integers [dx, dy, dz] (the grid is 3D)");
}

// Issue 35: a second document (---) was ignored, unknown keys and all.
TEST(InputDocuments, AnInputHoldsOneDocument) {
  const std::string why = "a second YAML document (an input holds one; --- starts another)";
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "---\nrun: {stepz: 3}\n"}})), "a.yaml:6:1: (syntax): " + why);
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase}, {"b.yaml", "run: {steps: 3}\n...\n--- {}\n"}})), "b.yaml:3:1: (syntax): " + why);
  EXPECT_EQ(error_of(layers({{"a.yaml", kBase + "---\n"}})), "a.yaml:6:1: (syntax): " + why);
  // One document, with its markers.
  EXPECT_EQ(test::heat_config(layers({{"a.yaml", "---\n" + kBase + "...\n# the end\n"}})).cfl, 0.5);
  core::InputSources in = layers({{"a.yaml", kBase}});
  in.sets = {"run.steps=3\n---\n4"};
  EXPECT_EQ(error_of(in), "--set run.steps=3\\n---\\n4: run.steps: " + why);
}

// Issue 35: an anchor and its aliases were one node, so --set through one use changed every use; each
// use is a copy of its own, whose errors still point at the anchored text.
TEST(InputAliases, AnOverrideChangesOnlyTheKeyItNames) {
  const std::string walls = "grid:\n  n: [12, 10, 8]\n  periodic: [false, false, true]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n"
                            "boundary:\n  x: &w {low: {neumann: 0}, high: {neumann: 0}}\n  y: *w\n";
  using Kind = core::WallKind;
  const auto kinds = [](const core::Config& c, int d) { return std::array<Kind, 2>{c.boundary[d][0].kind, c.boundary[d][1].kind}; };
  const std::array<Kind, 2> insulated{Kind::kNeumann, Kind::kNeumann};
  core::InputSources in = layers({{"a.yaml", walls}});
  in.sets = {"boundary.y=[1, 0]"};
  core::Config c = test::heat_config(in);
  EXPECT_EQ(kinds(c, 0), insulated);
  EXPECT_EQ(kinds(c, 1), (std::array<Kind, 2>{Kind::kDirichlet, Kind::kDirichlet}));
  EXPECT_EQ(c.boundary[1][0].value, 1.0);
  in.sets = {"boundary.y.low={dirichlet: 2}"};
  c = test::heat_config(in);
  EXPECT_EQ(kinds(c, 0), insulated);
  EXPECT_EQ(kinds(c, 1), (std::array<Kind, 2>{Kind::kDirichlet, Kind::kNeumann}));
  in.sets = {};
  in.unsets = {"boundary.x.high"};
  c = test::heat_config(in);
  EXPECT_EQ(kinds(c, 0), (std::array<Kind, 2>{Kind::kNeumann, Kind::kDirichlet}));
  EXPECT_EQ(kinds(c, 1), insulated);
  c = test::heat_config(layers({{"a.yaml", walls}, {"b.yaml", "boundary:\n  y:\n    low: ~\n"}}));
  EXPECT_EQ(kinds(c, 0), insulated);
  EXPECT_EQ(kinds(c, 1), (std::array<Kind, 2>{Kind::kDirichlet, Kind::kNeumann}));
  // An error in a use of the alias points at the anchored text.
  std::string bad = walls;
  bad.replace(bad.find("{neumann: 0}"), 12, "{neumann: .nan}");
  in = layers({{"a.yaml", bad}});
  in.sets = {"boundary.x=[0, 0]"};
  EXPECT_EQ(error_of(in), "a.yaml:8:15: boundary.y.low: expected neumann: a number (the outward normal derivative, 0 = "
                          "insulated), got .nan");
}

// The schema's defaults are the loader's: giving a key its default value (as the schema spells it)
// resolves to the same configuration as leaving it out. Every key with a default value is given once
// where it applies (an input of each alternative); a key the input gives already is not.
TEST(InputKeys, EveryDefaultIsWhatAnAbsentKeyReads) {
  const std::string two = "grid:\n  n: [12, 10, 8]\n";
  const std::vector<std::string> bases = {
      kBase,
      kBase + "init: {type: gaussian}\n",
      kBase + "stencil: {offsets: [[0, 0, 0], [1, 0, 0], [-1, 0, 0]], weights: [-2, 1, 1]}\n",
      "grid: {n: [12, 10, 8], periodic: [false, true, true]}\nphysics: {alpha: 1.0, cfl: 0.5}\nrun: {wall_time_limit: 100}\n",
      two + "physics: {cfl: 0.5, alpha: {layers: {bounds: [0.5], values: [1, 2]}}}\n",
      two + "physics: {cfl: 0.5, alpha: {gaussian: {peak: 2}}}\n"};
  const core::EquationInput& eq = test::equation_input("heat");
  std::set<std::string> checked;
  for (const std::string& base : bases) {
    const core::Config plain = test::heat_config(layers({{"a.yaml", base}}));
    for (const auto& k : core::input_keys(eq)) {
      const std::string name = k.path.substr(k.path.rfind('.') + 1);
      if (k.def.kind != core::KeyDefault::Kind::kValue || checked.count(k.path) || base.find(name + ":") != std::string::npos) continue;
      core::InputSources in = layers({{"a.yaml", base}});
      in.sets = {k.path + "=" + k.def.text};
      std::optional<core::Config> given;
      try {
        given = core::load_config(in, eq);
      } catch (const core::InputError&) {
        continue;  // the key does not apply to this input
      }
      EXPECT_EQ(given->resolved_yaml, plain.resolved_yaml) << k.path << " given as " << k.def.text;
      checked.insert(k.path);
    }
  }
  for (const auto& k : core::input_keys(eq))
    if (k.def.kind == core::KeyDefault::Kind::kValue) EXPECT_TRUE(checked.count(k.path)) << k.path << " never applied";
  EXPECT_GT(checked.size(), 30u);
}

TEST(InputKeys, TheTableIsConsistent) {
  for (const std::string name : {"heat", "wave"}) {
    const core::EquationInput& eq = test::equation_input(name);
    for (const auto& k : core::input_keys(eq)) {
      const std::optional<core::InputKey> found = core::find_input_key(k.path, eq);
      ASSERT_TRUE(found) << k.path;
      EXPECT_EQ(found->meaning, k.meaning) << k.path;
      EXPECT_TRUE(core::is_input_path(k.path.substr(0, k.path.find('.')), eq)) << k.path;
      EXPECT_FALSE(k.type.empty() || k.def.shown().empty() || k.meaning.empty()) << k.path;
      EXPECT_NE(core::input_keys_help(eq).find(k.path + "\n"), std::string::npos) << k.path;
    }
  }
  EXPECT_FALSE(core::find_input_key("physics.speed", test::equation_input("heat")));
  EXPECT_EQ(core::input_key_children("physics", test::equation_input("wave")), (std::vector<std::string>{"cfl", "dt", "speed"}));
  // An equation's keys join the table before physics.dt, in the order of docs/input.md; a coefficient
  // key's field forms (physics.alpha.layers.axis, ...) right after it.
  const std::vector<core::InputKey> heat = core::input_keys(test::equation_input("heat"));
  const auto at = [&heat](const std::string& path) {
    return std::find_if(heat.begin(), heat.end(), [&path](const core::InputKey& k) { return k.path == path; }) - heat.begin();
  };
  EXPECT_EQ(at("physics.alpha") + 1, at("physics.alpha.layers.axis"));
  EXPECT_EQ(at("physics.alpha.hdf5.dataset") + 1, at("physics.dt"));
}

TEST(ResolvedYaml, ShortestDigitsReloadToTheSameBits) {
  const core::Config c = test::heat_config(layers({{"a.yaml", kBase + "init: {amplitude: 0.1}\n"}}));
  EXPECT_EQ(c.resolved_yaml.find("boundary"), std::string::npos) << c.resolved_yaml;  // periodic: no walls to write
  EXPECT_NE(c.resolved_yaml.find("amplitude: 0.1\n"), std::string::npos) << c.resolved_yaml;
  const core::Config again = test::heat_config(layers({{"r.yaml", c.resolved_yaml}}));
  EXPECT_EQ(std::memcmp(&c.dt, &again.dt, sizeof(double)), 0);
  EXPECT_EQ(again.resolved_yaml, c.resolved_yaml);
}

}  // namespace
}  // namespace cartex
