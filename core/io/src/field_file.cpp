#include "cartex/io/field_file.hpp"

#include <algorithm>

#include "cartex/core/error.hpp"
#include "cartex/core/schedule.hpp"
#include "parallel_file.hpp"

namespace cartex::io {

double write_field_file(const std::string& path, const core::Config& cfg, const Provenance& prov, long step, const core::Field& u,
                        MPI_Comm comm) {
  return write_field_file(path, cfg, prov, step, std::vector<NamedField>{{"u", &u}}, comm);
}

double write_field_file(const std::string& path, const core::Config& cfg, const Provenance& prov, long step,
                        const std::vector<NamedField>& fields, MPI_Comm comm) {
  // Checked before the file is created: every rank passes the same names, so none is left in a collective call.
  const auto field = [&](const std::string& name) -> const core::Field& {
    const auto f = std::find_if(fields.begin(), fields.end(), [&](const NamedField& n) { return n.name == name; });
    core::require(f != fields.end() && f->field != nullptr, "write_field_file: no field " + name + " was passed");
    return *f->field;
  };
  const core::Field& u = field("u");
  for (const auto& name : cfg.output_fields)
    if (name != "rank") field(name);
  ParallelFile f(path, prov, comm);
  h5::write_attr(f.root(), "kind", std::string("cartex fields"));
  h5::write_attr(f.root(), "layout_version", kFieldFileLayoutVersion);
  h5::write_attr(f.root(), "step", step);
  h5::write_attr(f.root(), "time", core::step_time(cfg, step));
  write_grid_attrs(f.root(), cfg.grid);
  for (const auto& name : cfg.output_fields) {
    if (name == "rank")
      f.write_rank_field(name, u.layout, cfg.grid);
    else
      f.write_field(name, field(name), cfg.grid);
  }
  return f.commit();
}

}  // namespace cartex::io
