#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "cartex/core/error.hpp"
#include "cartex/io/checkpoint.hpp"
#include "h5.hpp"

namespace cartex::io {

namespace {

// Throws the one-line restart error for `path`.
[[noreturn]] void bad(const std::string& path, const std::string& what) { throw core::InputError(fmt::format("{}: {}", path, what)); }

template <class T>
std::string show(const std::vector<T>& v, const char* sep) {
  return fmt::format("{}", fmt::join(v, sep));
}

// "a,b,c" -> {a, b, c}; "" -> {""}.
std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  for (size_t at = 0; at <= text.size();) {
    const size_t comma = std::min(text.find(',', at), text.size());
    parts.push_back(text.substr(at, comma - at));
    at = comma + 1;
  }
  return parts;
}

// Checks grid size, length and periodicity against the input's grid.
void check_grid(const std::string& path, hid_t root, const core::GlobalGrid& g) {
  std::vector<long> n, periodic;
  std::vector<double> length;
  if (!h5::read_attr(root, "grid_n", n) || !h5::read_attr(root, "grid_length", length) ||
      !h5::read_attr(root, "grid_periodic", periodic))
    bad(path, "damaged checkpoint: the grid attributes (grid_n, grid_length, grid_periodic) are missing");
  const std::vector<long> want_n(g.n.begin(), g.n.begin() + g.dim);
  if (n != want_n)
    bad(path, fmt::format("grid mismatch: the checkpoint has {} cells, the input's grid.n is {}", show(n, "x"), show(want_n, "x")));
  const std::vector<double> want_length(g.length.begin(), g.length.begin() + g.dim);
  if (length != want_length)
    bad(path, fmt::format("grid mismatch: the checkpoint has grid.length [{}], the input has [{}]", show(length, ", "),
                          show(want_length, ", ")));
  std::vector<long> want_periodic;
  for (int d = 0; d < g.dim; ++d) want_periodic.push_back(g.periodic[d] ? 1 : 0);
  if (periodic != want_periodic)
    bad(path, fmt::format("grid mismatch: the checkpoint has grid.periodic [{}], the input has [{}] (1 = periodic)",
                          show(periodic, ", "), show(want_periodic, ", ")));
}

// Reads the history table (rows, columns) with its "columns" attribute.
Table read_history(const std::string& path, hid_t file) {
  Table t;
  h5::Handle dset(H5Lexists(file, "history", H5P_DEFAULT) > 0 ? H5Dopen2(file, "history", H5P_DEFAULT) : H5I_INVALID_HID);
  std::string cols;
  if (!dset.valid() || !h5::read_attr(dset.get(), "columns", cols)) bad(path, "damaged checkpoint: dataset history is missing");
  h5::Handle space(H5Dget_space(dset.get()));
  hsize_t dims[2] = {0, 0};
  if (!space.valid() || H5Sget_simple_extent_ndims(space.get()) != 2 || H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0)
    bad(path, "damaged checkpoint: dataset history is not a table");
  t.columns = split_commas(cols);
  if (dims[1] != t.columns.size()) bad(path, "damaged checkpoint: history columns do not match its shape");
  // A damaged header may claim any shape: believe it only as far as the file holds the data.
  const double claimed = 8.0 * static_cast<double>(dims[0]) * static_cast<double>(dims[1]);
  if (claimed > static_cast<double>(H5Dget_storage_size(dset.get())))
    bad(path, "damaged checkpoint: dataset history claims more rows than the file holds");
  t.values.resize(dims[0] * dims[1]);
  if (!t.values.empty() && H5Dread(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t.values.data()) < 0)
    bad(path, "damaged checkpoint: cannot read dataset history (truncated file?)");
  return t;
}

// Reads `box` of field dataset `name` after checking its type and global shape.
std::vector<double> read_block(const std::string& path, hid_t file, const std::string& name, const core::GlobalGrid& g,
                               const core::Box& box) {
  h5::Handle dset(H5Lexists(file, name.c_str(), H5P_DEFAULT) > 0 ? H5Dopen2(file, name.c_str(), H5P_DEFAULT) : H5I_INVALID_HID);
  if (!dset.valid()) bad(path, fmt::format("damaged checkpoint: dataset {} is missing", name));
  h5::Handle type(H5Dget_type(dset.get()));
  h5::Handle fspace(H5Dget_space(dset.get()));
  hsize_t dims[3] = {0, 0, 0};
  const hsize_t want[3] = {static_cast<hsize_t>(g.n[2]), static_cast<hsize_t>(g.n[1]), static_cast<hsize_t>(g.n[0])};
  if (!type.valid() || H5Tget_class(type.get()) != H5T_FLOAT || H5Tget_size(type.get()) != 8 || !fspace.valid() ||
      H5Sget_simple_extent_ndims(fspace.get()) != 3 || H5Sget_simple_extent_dims(fspace.get(), dims, nullptr) < 0 ||
      dims[0] != want[0] || dims[1] != want[1] || dims[2] != want[2])
    bad(path, fmt::format("damaged checkpoint: dataset {} is not a {}x{}x{} (z, y, x) array of doubles", name, want[0], want[1],
                          want[2]));
  const hsize_t start[3] = {static_cast<hsize_t>(box.lo[2]), static_cast<hsize_t>(box.lo[1]), static_cast<hsize_t>(box.lo[0])};
  const hsize_t count[3] = {static_cast<hsize_t>(box.n[2]), static_cast<hsize_t>(box.n[1]), static_cast<hsize_t>(box.n[0])};
  std::vector<double> block(static_cast<size_t>(box.cells()));
  h5::Handle mspace(H5Screate_simple(3, count, nullptr));
  if (H5Sselect_hyperslab(fspace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0 ||
      H5Dread(dset.get(), H5T_NATIVE_DOUBLE, mspace.get(), fspace.get(), H5P_DEFAULT, block.data()) < 0)
    bad(path, fmt::format("damaged checkpoint: cannot read dataset {} (truncated file?)", name));
  return block;
}

}  // namespace

Checkpoint read_checkpoint(const std::string& path, const core::Config& cfg, const core::Box& box,
                           const std::vector<std::string>& required, const std::vector<std::string>& equations) {
  h5::silence_errors();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) bad(path, "a directory, not a checkpoint file");
  if (!std::filesystem::is_regular_file(path, ec)) bad(path, "no such file");
  if (H5Fis_hdf5(path.c_str()) <= 0) bad(path, "not an HDF5 file");
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file.valid()) bad(path, "cannot open the HDF5 file (truncated or damaged)");
  const hid_t r = file.get();
  std::string kind;
  if (!h5::read_attr(r, "kind", kind) || kind != "cartex checkpoint")
    bad(path, "not a cartex checkpoint (no attribute kind = \"cartex checkpoint\")");
  Checkpoint ck;
  ck.path = path;
  ck.box = box;
  if (!h5::read_attr(r, "layout_version", ck.layout_version)) bad(path, "damaged checkpoint: attribute layout_version is missing");
  if (ck.layout_version != 1 && ck.layout_version != kCheckpointLayoutVersion)
    bad(path, fmt::format("checkpoint layout version {}, but this cartex reads versions 1 and {}", ck.layout_version,
                          kCheckpointLayoutVersion));
  // Version 1 predates the equation and field list: heat3d wrote it, with the one field u.
  ck.equation = "heat";
  ck.fields = {"u"};
  if (ck.layout_version >= 2) {
    std::string fields;
    if (!h5::read_attr(r, "equation", ck.equation)) bad(path, "damaged checkpoint: attribute equation is missing");
    if (std::find(equations.begin(), equations.end(), ck.equation) == equations.end())
      bad(path, fmt::format("damaged checkpoint: unknown equation \"{}\" (expected one of: {})", ck.equation,
                            fmt::join(equations, ", ")));
    if (!h5::read_attr(r, "fields", fields) || fields.empty()) bad(path, "damaged checkpoint: attribute fields is missing");
    ck.fields = split_commas(fields);
  }
  if (ck.equation != cfg.equation)
    bad(path, fmt::format("equation mismatch: the checkpoint was written by a {0} run (equation {0}), but this run is {1} "
                          "(equation {1})",
                          ck.equation, cfg.equation));
  check_grid(path, r, cfg.grid);
  std::string stencil;
  if (!h5::read_attr(r, "stencil", stencil)) bad(path, "damaged checkpoint: attribute stencil is missing");
  if (stencil != cfg.stencil.name)
    bad(path, fmt::format("stencil mismatch: the checkpoint was written with stencil {}, the input has {}", stencil, cfg.stencil.name));
  double dt = 0;
  if (!h5::read_attr(r, "dt", dt)) bad(path, "damaged checkpoint: attribute dt is missing");
  if (dt != cfg.dt)
    bad(path, fmt::format("time step mismatch: the checkpoint has dt {:.17g}, the input's resolved dt is {:.17g}", dt, cfg.dt));
  if (!h5::read_attr(r, "step", ck.step) || ck.step < 0) bad(path, "damaged checkpoint: attribute step is missing");
  if (ck.step > cfg.steps)
    bad(path, fmt::format("the checkpoint is at step {}, past the input's run.steps = {}", ck.step, cfg.steps));
  for (const auto& name : required)
    if (std::find(ck.fields.begin(), ck.fields.end(), name) == ck.fields.end())
      bad(path, fmt::format("the checkpoint has no field {}, which this {} run needs (it holds: {})", name,
                            cfg.equation, show(ck.fields, ", ")));
  ck.history = read_history(path, r);
  for (const auto& name : required)
    if (ck.blocks.count(name) == 0) ck.blocks[name] = read_block(path, r, name, cfg.grid, box);
  file.close_checked("closing " + path);
  return ck;
}

void load_checkpoint_field(const Checkpoint& ck, const std::string& name, core::Field& field) {
  const auto found = ck.blocks.find(name);
  if (found == ck.blocks.end()) {
    if (std::find(ck.fields.begin(), ck.fields.end(), name) == ck.fields.end())
      bad(ck.path, fmt::format("the checkpoint has no field {} (it holds: {})", name, show(ck.fields, ", ")));
    throw core::Error(fmt::format("{}: field {} was not read (read_checkpoint was not asked for it)", ck.path, name));
  }
  core::require(ck.box == field.layout.box, "checkpoint block was read for another box");
  const std::vector<double>& block = found->second;
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field.view);
  const core::Box& b = field.layout.box;
  const core::HaloWidths& h = field.layout.halo;
  size_t at = 0;
  for (long k = 0; k < b.n[2]; ++k)
    for (long j = 0; j < b.n[1]; ++j) {
      std::copy(block.data() + at, block.data() + at + b.n[0], &host(k + h.lo[2], j + h.lo[1], h.lo[0]));
      at += b.n[0];
    }
  Kokkos::deep_copy(field.view, host);
}

void load_checkpoint_field(const Checkpoint& ck, core::Field& u) { load_checkpoint_field(ck, "u", u); }

}  // namespace cartex::io
