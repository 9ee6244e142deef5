#include "parallel_file.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <vector>

#include "atomic_rename.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/core/mpi_main.hpp"

namespace cartex::io {

namespace {

// Test hook (docs/output.md): the job aborts while writing the file with this base name, after its
// data went to NAME.tmp and before the flush and rename, as a crash mid-write would.
bool abort_requested(const std::string& path) {
  const char* name = std::getenv("CARTEX_IO_TEST_ABORT");
  return name != nullptr && std::filesystem::path(path).filename() == name;
}

}  // namespace

void write_grid_attrs(hid_t obj, const core::GlobalGrid& grid) {
  std::vector<double> spacing(3), origin(3);
  for (int d = 0; d < 3; ++d) {
    spacing[d] = grid.spacing(d);
    origin[d] = grid.position(d, 0);
  }
  h5::write_attr(obj, "spacing", spacing);
  h5::write_attr(obj, "origin", origin);
  h5::write_attr(obj, "dimension_order", std::string("z,y,x"));
}

ParallelFile::ParallelFile(const std::string& path, const Provenance& prov, MPI_Comm comm)
    : path_(path), tmp_(path + ".tmp"), comm_(comm) {
  h5::silence_errors();
  rank_ = core::comm_rank(comm);
  h5::Handle fapl(h5::check(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate"));
  h5::check(H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
  h5::check(H5Pset_coll_metadata_write(fapl.get(), true), "H5Pset_coll_metadata_write");
  h5::check(H5Pset_all_coll_metadata_ops(fapl.get(), true), "H5Pset_all_coll_metadata_ops");
  // The 1.8 file format: superblock v2 and object header v2 carry checksums, so a damaged header or
  // attribute is an HDF5 read error, not a wrong value (HDF5 1.8 and later read these files).
  h5::check(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18), "H5Pset_libver_bounds");
  file_ = h5::Handle(H5Fcreate(tmp_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()));
  if (!file_.valid()) throw core::Error(fmt::format("HDF5: cannot create {}", tmp_));
  xfer_ = h5::Handle(h5::check(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"));
  h5::check(H5Pset_dxpl_mpio(xfer_.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");

  const hid_t r = file_.get();
  h5::write_attr(r, "input_yaml", prov.input_yaml);
  h5::write_attr(r, "cartex_version", prov.version);
  h5::write_attr(r, "git_commit", prov.git_commit);
  h5::write_attr(r, "backend", prov.backend);
  h5::write_attr(r, "start_time", prov.start_time);
  h5::write_attr(r, "restart_from", prov.restart_from);
  h5::write_attr(r, "process_grid", std::vector<long>(prov.process_dims.begin(), prov.process_dims.end()));
  h5::write_attr(r, "ranks", prov.ranks);
}

h5::Handle ParallelFile::create_grid_dataset(const std::string& name, hid_t type, const core::GlobalGrid& grid) {
  const hsize_t dims[3] = {static_cast<hsize_t>(grid.n[2]), static_cast<hsize_t>(grid.n[1]), static_cast<hsize_t>(grid.n[0])};
  h5::Handle space(h5::check(H5Screate_simple(3, dims, nullptr), "H5Screate_simple"));
  // Every cell is written, so HDF5 need not write fill values first (that would double the I/O).
  h5::Handle dcpl(h5::check(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate"));
  h5::check(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time");
  h5::Handle dset(H5Dcreate2(file_.get(), name.c_str(), type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT));
  if (!dset.valid()) throw core::Error(fmt::format("HDF5: cannot create dataset {} in {}", name, tmp_));
  write_grid_attrs(dset.get(), grid);
  return dset;
}

void ParallelFile::write_box(hid_t dset, hid_t mem_type, const core::Box& box, const void* data) {
  const hsize_t start[3] = {static_cast<hsize_t>(box.lo[2]), static_cast<hsize_t>(box.lo[1]), static_cast<hsize_t>(box.lo[0])};
  const hsize_t count[3] = {static_cast<hsize_t>(box.n[2]), static_cast<hsize_t>(box.n[1]), static_cast<hsize_t>(box.n[0])};
  h5::Handle fspace(h5::check(H5Dget_space(dset), "H5Dget_space"));
  h5::check(H5Sselect_hyperslab(fspace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), "H5Sselect_hyperslab");
  h5::Handle mspace(h5::check(H5Screate_simple(3, count, nullptr), "H5Screate_simple"));
  h5::check(H5Dwrite(dset, mem_type, mspace.get(), fspace.get(), xfer_.get(), data), fmt::format("H5Dwrite to {}", tmp_));
}

ParallelFile::~ParallelFile() {
  // A write that failed on some ranks only (a full disk) leaves the others in the next collective
  // call; H5Fclose is collective too and would wait for them forever. The error is ending the run
  // (MPI_Abort), so the file is left open and NAME.tmp is never renamed into place.
  if (std::uncaught_exceptions() > 0) {
    xfer_.abandon();
    file_.abandon();
  }
}

void ParallelFile::write_field(const std::string& name, const core::Field& u, const core::GlobalGrid& grid) {
  h5::Handle dset = create_grid_dataset(name, H5T_IEEE_F64LE, grid);
  // The interior is copied to a contiguous host buffer: the device view is never read on the host,
  // and a contiguous memory selection keeps the collective write a plain block per rank.
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u.view);
  const core::Box& b = u.layout.box;
  const core::HaloWidths& h = u.layout.halo;
  std::vector<double> buf(static_cast<size_t>(b.cells()));
  size_t at = 0;
  for (long k = 0; k < b.n[2]; ++k)
    for (long j = 0; j < b.n[1]; ++j) {
      const double* row = &host(k + h.lo[2], j + h.lo[1], h.lo[0]);
      std::copy(row, row + b.n[0], buf.data() + at);
      at += b.n[0];
    }
  write_box(dset.get(), H5T_NATIVE_DOUBLE, b, buf.data());
  bytes_ += 8.0 * grid.cells();
}

void ParallelFile::write_rank_field(const std::string& name, const core::FieldLayout& layout, const core::GlobalGrid& grid) {
  h5::Handle dset = create_grid_dataset(name, H5T_STD_I32LE, grid);
  std::vector<int> buf(static_cast<size_t>(layout.box.cells()), rank_);
  write_box(dset.get(), H5T_NATIVE_INT, layout.box, buf.data());
  bytes_ += 4.0 * grid.cells();
}

void ParallelFile::write_table(const std::string& name, const Table& t) {
  const hsize_t dims[2] = {static_cast<hsize_t>(t.rows()), static_cast<hsize_t>(t.columns.size())};
  h5::Handle space(h5::check(H5Screate_simple(2, dims, nullptr), "H5Screate_simple"));
  h5::Handle dset(H5Dcreate2(file_.get(), name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!dset.valid()) throw core::Error(fmt::format("HDF5: cannot create dataset {} in {}", name, tmp_));
  std::string cols;
  for (const auto& c : t.columns) cols += (cols.empty() ? "" : ",") + c;
  h5::write_attr(dset.get(), "columns", cols);
  h5::Handle fspace(h5::check(H5Dget_space(dset.get()), "H5Dget_space"));
  h5::Handle mspace(h5::check(H5Screate_simple(2, dims, nullptr), "H5Screate_simple"));
  if (rank_ != 0) {
    h5::check(H5Sselect_none(fspace.get()), "H5Sselect_none");
    h5::check(H5Sselect_none(mspace.get()), "H5Sselect_none");
  }
  h5::check(H5Dwrite(dset.get(), H5T_NATIVE_DOUBLE, mspace.get(), fspace.get(), xfer_.get(), t.values.data()),
            fmt::format("H5Dwrite {} to {}", name, tmp_));
  bytes_ += 8.0 * static_cast<double>(t.values.size());
}

double ParallelFile::commit() {
  if (abort_requested(path_)) {
    if (rank_ == 0) core::abort_job(comm_, fmt::format("cartex io: CARTEX_IO_TEST_ABORT: aborting while writing {}", tmp_), 3);
    // The others wait in a barrier rank 0 never joins: its abort ends them, after its line is out. Had
    // they aborted too, MPICH's launcher could kill rank 0 before it printed (seen in CI).
    const int rc = MPI_Barrier(comm_);
    core::abort_job(comm_, rc == MPI_SUCCESS ? "" : fmt::format("rank {}: MPI_Barrier failed awaiting rank 0's abort", rank_), 3);
  }
  h5::check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), fmt::format("H5Fflush {}", tmp_));
  xfer_.close_checked("closing a transfer property list");
  file_.close_checked(fmt::format("closing {}", tmp_));
  // Every rank has closed (H5Fclose is collective); only then may the name point at the file.
  core::check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
  int ok = 1;
  std::string why;
  if (rank_ == 0) {
    try {
      rename_durably(tmp_, path_);
    } catch (const core::Error& e) {
      ok = 0;
      why = e.what();
    }
  }
  core::check_mpi(MPI_Bcast(&ok, 1, MPI_INT, 0, comm_), "MPI_Bcast");
  if (!ok) throw core::Error(rank_ == 0 ? why : fmt::format("renaming {} failed on rank 0", tmp_));
  return bytes_;
}

}  // namespace cartex::io
