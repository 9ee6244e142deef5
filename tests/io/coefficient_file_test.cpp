// A varying coefficient read from an HDF5 dataset (io/coefficient_file.hpp), under MPI on 1-4
// ranks: a field file written by the ranks reads back into every view cell of each rank's block,
// halo included (periodic ghosts from their owner, wall ghosts from the nearest cell), for halos 1
// and 2, 2D and 3D; the collective scan gives every rank the whole range; a wrong shape, a missing
// dataset or file and an integer dataset are errors that name the file and the problem.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "cartex/core/coefficient.hpp"
#include "cartex/core/config.hpp"
#include "cartex/core/decomposition.hpp"
#include "cartex/core/error.hpp"
#include "cartex/io/coefficient_file.hpp"
#include "cartex/io/field_file.hpp"
#include "mpi_world.hpp"

namespace cartex::io {
namespace {

namespace fs = std::filesystem;
using test::world_barrier;
using test::world_rank;
using test::world_size;

double encode(long x, long y, long z) { return 0.5 + x + 64.0 * y + 4096.0 * z; }

core::Config config(int dim) {
  core::Config c;
  c.grid.dim = dim;
  c.grid.n = dim == 3 ? std::array<long, 3>{9, 7, 6} : std::array<long, 3>{11, 8, 1};
  c.grid.periodic = {true, false, true};
  c.output_fields = {"u", "rank"};
  return c;
}

core::FieldLayout layout(const core::GlobalGrid& g, const core::Box& box, int halo) {
  core::FieldLayout l;
  l.box = box;
  for (int d = 0; d < g.dim; ++d) l.halo.lo[d] = l.halo.hi[d] = halo;
  return l;
}

// Writes dataset u = encode(global cell) and the int32 dataset rank into `path` (every rank).
void write_encoded(const core::Config& c, const core::Decomposition& dec, const std::string& path) {
  core::Field u("u", layout(c.grid, dec.box(world_rank()), 1));
  auto h = Kokkos::create_mirror_view(u.view);
  const auto& l = u.layout;
  for (long k = 0; k < l.box.n[2]; ++k)
    for (long j = 0; j < l.box.n[1]; ++j)
      for (long i = 0; i < l.box.n[0]; ++i)
        h(k + l.halo.lo[2], j + 1, i + 1) = encode(l.box.lo[0] + i, l.box.lo[1] + j, l.box.lo[2] + k);
  Kokkos::deep_copy(u.view, h);
  Provenance p;
  p.version = "test";
  p.ranks = world_size();
  write_field_file(path, c, p, 0, u, MPI_COMM_WORLD);
}

std::string shared_path(const std::string& name) {
  char buf[256] = {};
  if (world_rank() == 0) {
    std::string tmpl = (fs::temp_directory_path() / "cartex_coef_XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    tmpl.copy(buf, sizeof buf - 1);
  }
  MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
  return (fs::path(buf) / name).string();
}

// The message of the core::Error `f()` throws, or "" if none.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const core::Error& e) {
    return e.what();
  }
  return "";
}

TEST(CoefficientFile, EveryViewCellReadsItsSourceCell) {
  for (int dim : {2, 3}) {
    const core::Config c = config(dim);
    const core::Decomposition dec(c.grid, core::ProcessGrid::create(c.grid, {0, 0, 0}, world_size()));
    const std::string path = shared_path("alpha.h5");
    write_encoded(c, dec, path);
    for (int halo : {1, 2}) {
      const core::FieldLayout l = layout(c.grid, dec.box(world_rank()), halo);
      const std::vector<double> v = read_coefficient_file(path, "u", c.grid, l);
      ASSERT_EQ(v.size(), static_cast<size_t>(l.extent(0) * l.extent(1) * l.extent(2)));
      long wrong = 0;
      size_t at = 0;
      for (long k = 0; k < l.extent(2); ++k)
        for (long j = 0; j < l.extent(1); ++j)
          for (long i = 0; i < l.extent(0); ++i) {
            const long x = core::coefficient_source_index(c.grid, 0, l.global_index(0, i));
            const long y = core::coefficient_source_index(c.grid, 1, l.global_index(1, j));
            const long z = core::coefficient_source_index(c.grid, 2, l.global_index(2, k));
            if (v[at++] != encode(x, y, z)) ++wrong;
          }
      EXPECT_EQ(wrong, 0) << dim << "D, halo " << halo << ", rank " << world_rank();
    }
    world_barrier();
    if (world_rank() == 0) fs::remove_all(fs::path(path).parent_path());
  }
}

TEST(CoefficientFile, BadFilesAreErrorsNamingTheProblem) {
  const core::Config c = config(3);
  const core::Decomposition dec(c.grid, core::ProcessGrid::create(c.grid, {0, 0, 0}, world_size()));
  const std::string path = shared_path("alpha.h5");
  write_encoded(c, dec, path);
  const core::FieldLayout l = layout(c.grid, dec.box(world_rank()), 1);
  core::GlobalGrid other = c.grid;
  other.n[0] += 1;
  const core::Decomposition other_dec(other, core::ProcessGrid::create(other, {0, 0, 0}, world_size()));
  const core::FieldLayout lo = layout(other, other_dec.box(world_rank()), 1);
  EXPECT_NE(error_of([&] { read_coefficient_file(path, "u", other, lo); }).find("has shape (6, 7, 9), expected the grid's (6, 7, 10)"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_coefficient_file(path, "alpha", c.grid, l); }).find("no dataset alpha"), std::string::npos);
  EXPECT_NE(error_of([&] { read_coefficient_file(path, "rank", c.grid, l); }).find("dataset rank is not floating point"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_coefficient_file(path + ".missing", "u", c.grid, l); }).find("no such file"), std::string::npos);
  world_barrier();
  if (world_rank() == 0) fs::remove_all(fs::path(path).parent_path());
}

// The scan is collective (each rank reads every size-th z-plane): every rank gets the whole dataset's
// range, a value seen by one rank only reaches all, and a bad dataset is the same error on every rank.
TEST(CoefficientFile, ScanGivesEveryRankTheWholeRange) {
  const core::Config c = config(3);
  const core::Decomposition dec(c.grid, core::ProcessGrid::create(c.grid, {0, 0, 0}, world_size()));
  const std::string path = shared_path("alpha.h5");
  write_encoded(c, dec, path);
  const std::array<double, 2> range = scan_coefficient_file(path, "u", c.grid);
  EXPECT_EQ(range[0], encode(0, 0, 0));
  EXPECT_EQ(range[1], encode(c.grid.n[0] - 1, c.grid.n[1] - 1, c.grid.n[2] - 1));
  core::GlobalGrid other = c.grid;
  other.n[0] += 1;
  EXPECT_NE(error_of([&] { scan_coefficient_file(path, "u", other); }).find("has shape (6, 7, 9), expected the grid's (6, 7, 10)"),
            std::string::npos)
      << "rank " << world_rank();
  EXPECT_NE(error_of([&] { scan_coefficient_file(path, "rank", c.grid); }).find("dataset rank is not floating point"),
            std::string::npos)
      << "rank " << world_rank();
  world_barrier();
  if (world_rank() == 0) fs::remove_all(fs::path(path).parent_path());
}

}  // namespace
}  // namespace cartex::io
