#include <fmt/format.h>

#include <set>

#include "cartex/core/schedule.hpp"
#include "cartex/core/error.hpp"
#include "cartex/io/checkpoint.hpp"
#include "parallel_file.hpp"

namespace cartex::io {

namespace {

// A field name is a plain dataset name that cannot collide with the history table.
bool valid_field_name(const std::string& name) {
  if (name.empty() || name == "history") return false;
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// Checks the field list before the file is created: every rank passes the same list, so every
// rank throws (or none does) and no collective call is left waiting.
void check_fields(const std::string& path, const std::vector<NamedField>& fields) {
  if (fields.empty()) throw core::Error(fmt::format("checkpoint {}: no fields to write", path));
  std::set<std::string> seen;
  for (const auto& f : fields) {
    if (!valid_field_name(f.name))
      throw core::Error(fmt::format("checkpoint {}: bad field name \"{}\" (letters, digits and '_', not \"history\")", path, f.name));
    if (f.field == nullptr) throw core::Error(fmt::format("checkpoint {}: field {} is null", path, f.name));
    if (!seen.insert(f.name).second) throw core::Error(fmt::format("checkpoint {}: field {} is listed twice", path, f.name));
  }
}

}  // namespace

double write_checkpoint(const std::string& path, const core::Config& cfg, const Provenance& prov, long step,
                        const std::vector<NamedField>& fields, const Table& history, MPI_Comm comm) {
  check_fields(path, fields);
  ParallelFile f(path, prov, comm);
  const hid_t r = f.root();
  h5::write_attr(r, "kind", std::string("cartex checkpoint"));
  h5::write_attr(r, "layout_version", kCheckpointLayoutVersion);
  h5::write_attr(r, "step", step);
  h5::write_attr(r, "time", core::step_time(cfg, step));
  // What read_checkpoint compares with the restarting input.
  h5::write_attr(r, "equation", cfg.equation);
  h5::write_attr(r, "grid_n", std::vector<long>(cfg.grid.n.begin(), cfg.grid.n.begin() + cfg.grid.dim));
  h5::write_attr(r, "grid_length", std::vector<double>(cfg.grid.length.begin(), cfg.grid.length.begin() + cfg.grid.dim));
  std::vector<long> periodic;
  for (int d = 0; d < cfg.grid.dim; ++d) periodic.push_back(cfg.grid.periodic[d] ? 1 : 0);
  h5::write_attr(r, "grid_periodic", periodic);
  h5::write_attr(r, "stencil", cfg.stencil.name);
  h5::write_attr(r, "dt", cfg.dt);
  write_grid_attrs(r, cfg.grid);
  // The field datasets, named in order by one comma-separated attribute (like history's columns).
  std::string names;
  for (const auto& nf : fields) names += (names.empty() ? "" : ",") + nf.name;
  h5::write_attr(r, "fields", names);
  for (const auto& nf : fields) f.write_field(nf.name, *nf.field, cfg.grid);
  f.write_table("history", history);
  return f.commit();
}

}  // namespace cartex::io
