#pragma once
// Internal: one new HDF5 file written collectively by every rank of a communicator, created as
// NAME.tmp and renamed to NAME only by commit(), after a flush, so a reader never sees half a file.
#include <hdf5.h>
#include <mpi.h>

#include <string>

#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/io/provenance.hpp"
#include "cartex/io/table.hpp"
#include "h5.hpp"

namespace cartex::io {

// A collective parallel-HDF5 file under construction (H5Pset_fapl_mpio, collective transfers).
class ParallelFile {
 public:
  // Creates `path`.tmp on every rank of `comm` and writes the provenance attributes (collective).
  ParallelFile(const std::string& path, const Provenance& prov, MPI_Comm comm);

  // Closes an unfinished file, except while an exception unwinds (see parallel_file.cpp).
  ~ParallelFile();
  ParallelFile(const ParallelFile&) = delete;
  ParallelFile& operator=(const ParallelFile&) = delete;
  // The root group, for attributes.
  hid_t root() const { return file_.get(); }
  // Writes every rank's interior of `u` into dataset `name` of the global shape (nz, ny, nx) (collective).
  void write_field(const std::string& name, const core::Field& u, const core::GlobalGrid& grid);
  // Writes dataset `name` (int32, global shape) holding the owning rank of each cell (collective).
  void write_rank_field(const std::string& name, const core::FieldLayout& layout, const core::GlobalGrid& grid);
  // Writes `t` as a 2D dataset (rows, columns) with a "columns" attribute; rank 0 supplies the data.
  void write_table(const std::string& name, const Table& t);
  // Flushes, closes and renames NAME.tmp to NAME (collective); returns the bytes of datasets written.
  double commit();

 private:
  // Creates dataset `name` of the global grid shape and element `type`; attaches the grid attributes.
  h5::Handle create_grid_dataset(const std::string& name, hid_t type, const core::GlobalGrid& grid);
  // Collective write of this rank's `box` from a contiguous buffer (z, y, x order) into `dset`.
  void write_box(hid_t dset, hid_t mem_type, const core::Box& box, const void* data);

  std::string path_, tmp_;
  MPI_Comm comm_;
  int rank_ = 0;
  h5::Handle file_;
  h5::Handle xfer_;  // collective transfer property list
  double bytes_ = 0;
};

// Writes the grid attributes (spacing, origin, dimension order) on `obj`: shared by every file kind.
void write_grid_attrs(hid_t obj, const core::GlobalGrid& grid);

}  // namespace cartex::io
