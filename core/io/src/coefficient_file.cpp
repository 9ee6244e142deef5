#include "cartex/io/coefficient_file.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <limits>

#include "cartex/core/coefficient.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "h5.hpp"

namespace cartex::io {

namespace {

// A run of view indices along one dimension whose source cells are consecutive.
struct Segment {
  long view = 0, source = 0, count = 0;
};

std::vector<Segment> segments(const core::GlobalGrid& grid, const core::FieldLayout& layout, int d) {
  std::vector<Segment> out;
  for (long v = 0; v < layout.extent(d); ++v) {
    const long s = core::coefficient_source_index(grid, d, layout.global_index(d, v));
    if (!out.empty() && out.back().source + out.back().count == s)
      ++out.back().count;
    else
      out.push_back({v, s, 1});
  }
  return out;
}

[[noreturn]] void bad(const std::string& file, const std::string& what) { throw core::Error(fmt::format("{}: {}", file, what)); }

// An open dataset checked against the grid: floating point, shape (nz, ny, nx) (or (ny, nx) in 2D).
struct CheckedDataset {
  h5::Handle file, dset, fspace;
  int rank = 3;
};

CheckedDataset open_checked(const std::string& file, const std::string& dataset, const core::GlobalGrid& grid) {
  h5::silence_errors();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) bad(file, "no such file");
  if (H5Fis_hdf5(file.c_str()) <= 0) bad(file, "not an HDF5 file");
  CheckedDataset c;
  c.file = h5::Handle(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!c.file.valid()) bad(file, "cannot open the HDF5 file");
  if (H5Lexists(c.file.get(), dataset.c_str(), H5P_DEFAULT) <= 0) bad(file, fmt::format("no dataset {}", dataset));
  c.dset = h5::Handle(H5Dopen2(c.file.get(), dataset.c_str(), H5P_DEFAULT));
  if (!c.dset.valid()) bad(file, fmt::format("{} is not a dataset", dataset));
  h5::Handle type(h5::check(H5Dget_type(c.dset.get()), "H5Dget_type"));
  if (H5Tget_class(type.get()) != H5T_FLOAT) bad(file, fmt::format("dataset {} is not floating point", dataset));
  c.fspace = h5::Handle(h5::check(H5Dget_space(c.dset.get()), "H5Dget_space"));
  const int rank = H5Sget_simple_extent_ndims(c.fspace.get());
  c.rank = rank;
  std::array<hsize_t, 3> dims{0, 0, 0};
  if (rank == 3 || (rank == 2 && grid.dim == 2))
    h5::check(H5Sget_simple_extent_dims(c.fspace.get(), dims.data(), nullptr), "H5Sget_simple_extent_dims");
  const std::array<hsize_t, 3> want{static_cast<hsize_t>(grid.n[2]), static_cast<hsize_t>(grid.n[1]), static_cast<hsize_t>(grid.n[0])};
  const bool shape_ok = rank == 3 ? dims == want : rank == 2 && grid.dim == 2 && dims[0] == want[1] && dims[1] == want[2];
  if (!shape_ok) {
    std::string got;
    if (rank >= 1 && rank <= 8) {
      std::vector<hsize_t> all(static_cast<size_t>(rank));
      h5::check(H5Sget_simple_extent_dims(c.fspace.get(), all.data(), nullptr), "H5Sget_simple_extent_dims");
      for (size_t q = 0; q < all.size(); ++q) got += (q ? ", " : "") + std::to_string(all[q]);
    }
    bad(file, fmt::format("dataset {} has shape ({}), expected the grid's ({}, {}, {}) (nz, ny, nx)", dataset, got, want[0], want[1],
                          want[2]));
  }
  return c;
}

// Reads the box start .. start + count (z, y, x order; a 2D dataset drops z) into `buf`.
void read_box(const CheckedDataset& c, const std::string& file, const std::string& dataset, const hsize_t start3[3],
              const hsize_t count3[3], std::vector<double>& buf) {
  const int off = c.rank == 3 ? 0 : 1;
  h5::check(H5Sselect_hyperslab(c.fspace.get(), H5S_SELECT_SET, start3 + off, nullptr, count3 + off, nullptr), "H5Sselect_hyperslab");
  h5::Handle mspace(h5::check(H5Screate_simple(c.rank, count3 + off, nullptr), "H5Screate_simple"));
  buf.resize(static_cast<size_t>(count3[0] * count3[1] * count3[2]));
  if (H5Dread(c.dset.get(), H5T_NATIVE_DOUBLE, mspace.get(), c.fspace.get(), H5P_DEFAULT, buf.data()) < 0)
    bad(file, fmt::format("cannot read dataset {}", dataset));
}

}  // namespace

namespace {

// The planes z = first, first + stride, ... of the dataset folded into {smallest, largest} (NaN
// smallest if any value is NaN), one z-plane in memory at a time.
std::array<double, 2> scan_planes(const std::string& file, const std::string& dataset, const core::GlobalGrid& grid, long first,
                                  long stride) {
  CheckedDataset c = open_checked(file, dataset, grid);
  std::array<double, 2> range{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  std::vector<double> buf;
  for (long z = first; z < grid.n[2]; z += stride) {
    const hsize_t start3[3] = {static_cast<hsize_t>(z), 0, 0};
    const hsize_t count3[3] = {1, static_cast<hsize_t>(grid.n[1]), static_cast<hsize_t>(grid.n[0])};
    read_box(c, file, dataset, start3, count3, buf);
    for (const double a : buf) {
      if (std::isnan(a) || std::isnan(range[0])) range[0] = std::numeric_limits<double>::quiet_NaN();
      else range[0] = std::min(range[0], a);
      range[1] = std::max(range[1], a);
    }
  }
  c.file.close_checked("closing " + file);
  return range;
}

}  // namespace

std::array<double, 2> scan_coefficient_file(const std::string& file, const std::string& dataset, const core::GlobalGrid& grid) {
  int initialized = 0, finalized = 0;
  core::check_mpi(MPI_Initialized(&initialized), "MPI_Initialized");
  core::check_mpi(MPI_Finalized(&finalized), "MPI_Finalized");
  if (!initialized || finalized) return scan_planes(file, dataset, grid, 0, 1);

  // Every rank reads every size-th plane (the file once in all, not once per rank) and the ranks agree
  // on the outcome: the same range, or the lowest failing rank's error, on every rank (the loader
  // runs on every rank and must refuse the same input everywhere).
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = core::comm_rank(comm), size = core::comm_size(comm);
  std::array<double, 2> range{};
  std::string error;
  try {
    range = scan_planes(file, dataset, grid, rank, size);
  } catch (const core::Error& e) {
    error = e.what();
  }
  int first = error.empty() ? size : rank;
  core::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first < size) {
    int length = static_cast<int>(error.size());
    core::check_mpi(MPI_Bcast(&length, 1, MPI_INT, first, comm), "MPI_Bcast");
    error.resize(static_cast<size_t>(length));
    core::check_mpi(MPI_Bcast(error.data(), length, MPI_CHAR, first, comm), "MPI_Bcast");
    throw core::Error(error);
  }
  // {-smallest, largest, any NaN}: one MPI_MAX folds all three.
  double folded[3] = {std::isnan(range[0]) ? 0.0 : -range[0], range[1], std::isnan(range[0]) ? 1.0 : 0.0};
  core::check_mpi(MPI_Allreduce(MPI_IN_PLACE, folded, 3, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return {folded[2] > 0 ? std::numeric_limits<double>::quiet_NaN() : -folded[0], folded[1]};
}

std::vector<double> read_coefficient_file(const std::string& file, const std::string& dataset, const core::GlobalGrid& grid,
                                          const core::FieldLayout& layout) {
  CheckedDataset c = open_checked(file, dataset, grid);
  const std::array<std::vector<Segment>, 3> seg{segments(grid, layout, 0), segments(grid, layout, 1), segments(grid, layout, 2)};
  const long ex = layout.extent(0), ey = layout.extent(1);
  std::vector<double> values(static_cast<size_t>(ex * ey * layout.extent(2)));
  std::vector<double> buf;
  for (const Segment& z : seg[2])
    for (const Segment& y : seg[1])
      for (const Segment& x : seg[0]) {
        const hsize_t start3[3] = {static_cast<hsize_t>(z.source), static_cast<hsize_t>(y.source), static_cast<hsize_t>(x.source)};
        const hsize_t count3[3] = {static_cast<hsize_t>(z.count), static_cast<hsize_t>(y.count), static_cast<hsize_t>(x.count)};
        read_box(c, file, dataset, start3, count3, buf);
        size_t at = 0;
        for (long k = 0; k < z.count; ++k)
          for (long j = 0; j < y.count; ++j)
            for (long i = 0; i < x.count; ++i) values[static_cast<size_t>(((z.view + k) * ey + y.view + j) * ex + x.view + i)] = buf[at++];
      }
  c.file.close_checked("closing " + file);
  return values;
}

}  // namespace cartex::io
