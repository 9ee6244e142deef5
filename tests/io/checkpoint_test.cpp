// Checkpoints with named fields, under MPI (run on 2 and 3 ranks): written on P ranks and read on
// Q ranks (every P, Q up to the job size) every cell of every field is its global-index encoding
// and the halo is untouched; a heat/wave mismatch, a missing field and a bad field list are clear
// errors; a version-1 checkpoint (one field u, no equation) still reads as heat; OutputWriter puts
// every named field into its checkpoints and u into its field files. The fields asked for are the
// state of the equation's row (physics' registry), whose checkpoint names the files keep.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/decomposition.hpp"
#include "cartex/core/error.hpp"
#include "cartex/io/checkpoint.hpp"
#include "cartex/io/output_writer.hpp"
#include "cartex/physics/equation.hpp"
#include "mpi_world.hpp"

namespace cartex::io {
namespace {

namespace fs = std::filesystem;

constexpr double kHaloMark = -7.0;

using test::world_barrier;
using test::world_rank;
using test::world_size;

// A directory every rank shares, made by rank 0 and removed when the test ends.
class SharedDir {
 public:
  SharedDir() {
    char buf[256] = {};
    if (world_rank() == 0) {
      std::string tmpl = (fs::temp_directory_path() / "cartex_ckpt_XXXXXX").string();
      if (mkdtemp(tmpl.data()) == nullptr) std::abort();
      tmpl.copy(buf, sizeof buf - 1);
    }
    MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
    path_ = buf;
  }
  ~SharedDir() {
    world_barrier();
    if (world_rank() == 0) fs::remove_all(path_);
  }
  std::string file(const std::string& name) const { return (fs::path(path_) / name).string(); }

 private:
  std::string path_;
};

core::Config config(const std::string& equation, int dim) {
  core::Config c;
  c.equation = equation;
  c.grid.dim = dim;
  c.grid.n = dim == 3 ? std::array<long, 3>{7, 5, 6} : std::array<long, 3>{9, 6, 1};
  c.grid.periodic = {true, false, true};
  c.grid.length = {1.0, 2.0, dim == 3 ? 0.75 : 1.0};
  c.stencil = core::make_builtin_stencil(dim == 3 ? "7pt" : "5pt", c.grid);
  c.dt = 0.001;
  c.steps = 20;
  return c;
}

// read_checkpoint for the state of c.equation's row (physics/equation.hpp): its checkpoint names.
Checkpoint read_state(const std::string& path, const core::Config& c, const core::Box& box) {
  return read_checkpoint(path, c, box, physics::state_names(physics::find_equation(c.equation)), physics::equation_names());
}

// Field `which` at global cell (x, y, z): distinct for every cell and field, exact in a double.
double encode(int which, long x, long y, long z) { return 0.25 + x + 64.0 * y + 4096.0 * z + 1e6 * which; }

core::FieldLayout layout_of(const core::Config& c, const core::Box& box) {
  core::FieldLayout l;
  l.box = box;
  l.halo = c.stencil.reach();
  return l;
}

// The field `which` on `box`: its encoding inside, kHaloMark in the halo.
core::Field encoded_field(const core::Config& c, const core::Box& box, int which) {
  core::Field f("f", layout_of(c, box));
  auto h = Kokkos::create_mirror_view(f.view);
  Kokkos::deep_copy(h, kHaloMark);
  const core::HaloWidths& w = f.layout.halo;
  for (long k = 0; k < box.n[2]; ++k)
    for (long j = 0; j < box.n[1]; ++j)
      for (long i = 0; i < box.n[0]; ++i)
        h(k + w.lo[2], j + w.lo[1], i + w.lo[0]) = encode(which, box.lo[0] + i, box.lo[1] + j, box.lo[2] + k);
  Kokkos::deep_copy(f.view, h);
  return f;
}

// Number of cells of `f` that differ from field `which`'s encoding (interior) or from kHaloMark (halo).
long wrong_cells(const core::Field& f, int which) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  const core::FieldLayout& l = f.layout;
  long wrong = 0;
  for (long k = 0; k < l.extent(2); ++k)
    for (long j = 0; j < l.extent(1); ++j)
      for (long i = 0; i < l.extent(0); ++i) {
        const long x = l.global_index(0, i), y = l.global_index(1, j), z = l.global_index(2, k);
        const bool inside = l.box.contains({x, y, z});
        if (h(k, j, i) != (inside ? encode(which, x, y, z) : kHaloMark)) ++wrong;
      }
  return wrong;
}

Provenance provenance(int ranks) {
  Provenance p;
  p.version = "test";
  p.start_time = "2026-01-01T00:00:00Z";
  p.ranks = ranks;
  return p;
}

Table history() { return Table{{"step", "time"}, {0, 0, 5, 0.005}}; }

// Writes a checkpoint of `fields` (encodings 1, 2, ...) at step 5 on the first `ranks` ranks of
// the world; the other ranks wait.
void write_on(int ranks, const core::Config& c, const std::string& path, const std::vector<std::string>& fields) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() < ranks ? 0 : MPI_UNDEFINED, world_rank(), &comm);
  if (comm != MPI_COMM_NULL) {
    const core::Decomposition dec(c.grid, core::ProcessGrid::create(c.grid, {0, 0, 0}, ranks));
    std::vector<core::Field> storage;
    for (size_t f = 0; f < fields.size(); ++f) storage.push_back(encoded_field(c, dec.box(world_rank()), int(f) + 1));
    std::vector<NamedField> named;
    for (size_t f = 0; f < fields.size(); ++f) named.push_back({fields[f], &storage[f]});
    write_checkpoint(path, c, provenance(ranks), 5, named, history(), comm);
    MPI_Comm_free(&comm);
  }
  world_barrier();
}

// This rank's box when `ranks` ranks read (only for world_rank() < ranks).
core::Box box_of(const core::Config& c, int ranks) {
  return core::Decomposition(c.grid, core::ProcessGrid::create(c.grid, {0, 0, 0}, ranks)).box(world_rank());
}

// The InputError message of `f()`, or "" if it throws none.
template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Checkpoint, TwoFieldsWrittenOnPRanksReadOnQRanks) {
  SharedDir dir;
  const int size = world_size();
  for (int dim : {3, 2})
    for (int p = 1; p <= size; ++p) {
      const core::Config c = config("wave", dim);
      const std::string path = dir.file("wave_" + std::to_string(dim) + "d_" + std::to_string(p) + ".h5");
      write_on(p, c, path, {"u", "u_previous"});
      for (int q = 1; q <= size; ++q) {
        SCOPED_TRACE(testing::Message() << dim << "D, written on " << p << " ranks, read on " << q);
        if (world_rank() >= q) continue;
        const core::Box box = box_of(c, q);
        const Checkpoint ck = read_state(path, c, box);
        EXPECT_EQ(ck.layout_version, kCheckpointLayoutVersion);
        EXPECT_EQ(ck.equation, "wave");
        EXPECT_EQ(ck.step, 5);
        EXPECT_EQ(ck.fields, (std::vector<std::string>{"u", "u_previous"}));
        EXPECT_EQ(ck.history.columns, history().columns);
        EXPECT_EQ(ck.history.values, history().values);
        core::Field u("u", layout_of(c, box)), previous("u_previous", layout_of(c, box));
        Kokkos::deep_copy(u.view, kHaloMark);
        Kokkos::deep_copy(previous.view, kHaloMark);
        load_checkpoint_field(ck, "u", u);
        load_checkpoint_field(ck, "u_previous", previous);
        EXPECT_EQ(wrong_cells(u, 1), 0);
        EXPECT_EQ(wrong_cells(previous, 2), 0);
      }
    }
}

TEST(Checkpoint, EquationMismatchIsAnInputError) {
  SharedDir dir;
  const int size = world_size();
  const std::string heat = dir.file("heat.h5"), wave = dir.file("wave.h5");
  write_on(size, config("heat", 3), heat, {"u"});
  write_on(size, config("wave", 3), wave, {"u", "u_previous"});
  const core::Config heat_cfg = config("heat", 3), wave_cfg = config("wave", 3);
  const core::Box box = box_of(heat_cfg, size);
  EXPECT_EQ(input_error([&] { read_state(heat, wave_cfg, box); }),
            heat + ": equation mismatch: the checkpoint was written by a heat run (equation heat), but this run is wave (equation wave)");
  EXPECT_EQ(input_error([&] { read_state(wave, heat_cfg, box); }),
            wave + ": equation mismatch: the checkpoint was written by a wave run (equation wave), but this run is heat (equation heat)");
  // The equation decides even when the asked-for fields are all there.
  EXPECT_NE(input_error([&] { read_checkpoint(wave, heat_cfg, box, {"u"}, physics::equation_names()); }), "");
}

TEST(Checkpoint, MissingFieldIsAnInputError) {
  SharedDir dir;
  const int size = world_size();
  const core::Config wave_cfg = config("wave", 3), heat_cfg = config("heat", 3);
  const core::Box box = box_of(wave_cfg, size);
  // A wave run that checkpointed only u (the one-field OutputWriter::maybe_write) cannot continue.
  const std::string only_u = dir.file("only_u.h5");
  write_on(size, wave_cfg, only_u, {"u"});
  EXPECT_EQ(input_error([&] { read_state(only_u, wave_cfg, box); }),
            only_u + ": the checkpoint has no field u_previous, which this wave run needs (it holds: u)");
  // An explicit list of required fields.
  const std::string heat = dir.file("heat.h5");
  write_on(size, heat_cfg, heat, {"u", "aux"});
  EXPECT_EQ(input_error([&] { read_checkpoint(heat, heat_cfg, box, {"u", "v"}, physics::equation_names()); }),
            heat + ": the checkpoint has no field v, which this heat run needs (it holds: u, aux)");
  // Only the required fields are read; asking for another is an InputError if the file lacks it
  // and a programming error (not the input's fault) if it was just not asked for.
  const Checkpoint ck = read_state(heat, heat_cfg, box);
  EXPECT_EQ(ck.fields, (std::vector<std::string>{"u", "aux"}));
  EXPECT_EQ(ck.blocks.size(), 1u);
  core::Field f("f", layout_of(heat_cfg, box));
  EXPECT_EQ(input_error([&] { load_checkpoint_field(ck, "v", f); }), heat + ": the checkpoint has no field v (it holds: u, aux)");
  try {
    load_checkpoint_field(ck, "aux", f);
    ADD_FAILURE() << "loading a field that was not read did not throw";
  } catch (const core::InputError& e) {
    ADD_FAILURE() << "an InputError for a field that was not read: " << e.what();
  } catch (const core::Error&) {
  }
  const Checkpoint both = read_checkpoint(heat, heat_cfg, box, {"u", "aux"}, physics::equation_names());
  Kokkos::deep_copy(f.view, kHaloMark);
  load_checkpoint_field(both, "aux", f);
  EXPECT_EQ(wrong_cells(f, 2), 0);
}

TEST(Checkpoint, BadFieldListsAreRefusedOnEveryRankBeforeWriting) {
  SharedDir dir;
  const core::Config c = config("wave", 3);
  const core::Field u = encoded_field(c, box_of(c, world_size()), 1);
  const std::string path = dir.file("bad.h5");
  const std::vector<std::vector<NamedField>> bad = {
      {}, {{"u", &u}, {"u", &u}}, {{"history", &u}}, {{"", &u}}, {{"a/b", &u}}, {{"u", nullptr}}};
  for (const auto& fields : bad) {
    EXPECT_THROW(write_checkpoint(path, c, provenance(world_size()), 1, fields, history(), MPI_COMM_WORLD), core::Error);
    world_barrier();
    EXPECT_FALSE(fs::exists(path) || fs::exists(path + ".tmp"));
  }
}

// tests/io/data/checkpoint_v1.h5: written on 2 ranks by the layout-1 writer (tests/io/data/README.md).
core::Config version1_config(const std::string& equation) {
  core::Config c;
  c.equation = equation;
  c.grid.dim = 3;
  c.grid.n = {5, 4, 3};
  c.grid.periodic = {true, false, true};
  c.grid.length = {1.0, 2.0, 0.75};
  c.stencil = core::make_builtin_stencil("7pt", c.grid);
  c.dt = 0.001;
  c.steps = 20;
  return c;
}

TEST(Checkpoint, Version1ReadsAsHeatWithTheFieldU) {
  const std::string path = std::string(CARTEX_IO_TEST_DATA) + "/checkpoint_v1.h5";
  const core::Config c = version1_config("heat");
  const core::Box box = box_of(c, world_size());
  const Checkpoint ck = read_state(path, c, box);
  EXPECT_EQ(ck.layout_version, 1);
  EXPECT_EQ(ck.equation, "heat");
  EXPECT_EQ(ck.step, 7);
  EXPECT_EQ(ck.fields, (std::vector<std::string>{"u"}));
  EXPECT_EQ(ck.history.columns, (std::vector<std::string>{"step", "time", "sum", "min", "max", "total_heat", "sine_rel_error"}));
  EXPECT_EQ(ck.history.values, (std::vector<double>{0, 0, 1, 2, 3, 4, -1, 7, 0.007, 5, 6, 7, 8, -1}));
  core::Field u("u", layout_of(c, box));
  Kokkos::deep_copy(u.view, kHaloMark);
  load_checkpoint_field(ck, u);  // the one-field form
  // The writer's encoding: 0.5 + x + 1000 y + 1e6 z.
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u.view);
  const core::HaloWidths& w = u.layout.halo;
  long wrong = 0;
  for (long k = 0; k < box.n[2]; ++k)
    for (long j = 0; j < box.n[1]; ++j)
      for (long i = 0; i < box.n[0]; ++i)
        if (h(k + w.lo[2], j + w.lo[1], i + w.lo[0]) != 0.5 + (box.lo[0] + i) + 1000.0 * (box.lo[1] + j) + 1e6 * (box.lo[2] + k))
          ++wrong;
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(input_error([&] { read_state(path, version1_config("wave"), box); }),
            path + ": equation mismatch: the checkpoint was written by a heat run (equation heat), but this run is wave (equation wave)");
}

TEST(OutputWriter, CheckpointsHoldEveryNamedFieldAndFieldFilesU) {
  SharedDir dir;
  core::Config c = config("wave", 3);
  c.steps = 4;
  c.checkpoint_every = 2;
  c.keep_checkpoints = 0;
  c.output_every = 4;
  const int size = world_size();
  const core::ProcessGrid procs = core::ProcessGrid::create(c.grid, {0, 0, 0}, size);
  const core::Box box = core::Decomposition(c.grid, procs).box(world_rank());
  const core::Field u = encoded_field(c, box, 1), previous = encoded_field(c, box, 2);
  int history_calls = 0;
  const auto table = [&history_calls] {
    ++history_calls;
    return history();
  };
  {
    c.output_dir = dir.file("two");
    OutputWriter w(c, procs, 0, "", MPI_COMM_WORLD);
    for (long step = 0; step <= c.steps; ++step) w.maybe_write(step, {{"u", &u}, {"u_previous", &previous}}, table);
    EXPECT_EQ(w.stats().checkpoints, 2);
    EXPECT_EQ(w.stats().field_files, 2);  // steps 0 and 4
    EXPECT_EQ(history_calls, 2);
    EXPECT_THROW(w.maybe_write(1, {{"u_previous", &previous}}, table), core::Error);
  }
  world_barrier();
  for (const char* name : {"checkpoint_000002.h5", "checkpoint_000004.h5"}) {
    const Checkpoint ck = read_state(dir.file("two/") + name, c, box);
    core::Field a("a", layout_of(c, box)), b("b", layout_of(c, box));
    Kokkos::deep_copy(a.view, kHaloMark);
    Kokkos::deep_copy(b.view, kHaloMark);
    load_checkpoint_field(ck, "u", a);
    load_checkpoint_field(ck, "u_previous", b);
    EXPECT_EQ(wrong_cells(a, 1), 0) << name;
    EXPECT_EQ(wrong_cells(b, 2), 0) << name;
  }
  EXPECT_TRUE(fs::exists(dir.file("two/fields_000004.h5")));

  // The one-field overload (heat3d's call) checkpoints {"u"}.
  c.output_dir = dir.file("one");
  {
    OutputWriter w(c, procs, 0, "", MPI_COMM_WORLD);
    for (long step = 0; step <= c.steps; ++step) w.maybe_write(step, u, table);
    EXPECT_EQ(w.stats().checkpoints, 2);
  }
  world_barrier();
  const Checkpoint ck = read_checkpoint(dir.file("one/checkpoint_000004.h5"), c, box, {"u"}, physics::equation_names());
  EXPECT_EQ(ck.fields, (std::vector<std::string>{"u"}));
}

}  // namespace
}  // namespace cartex::io
