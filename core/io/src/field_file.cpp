#include "cartex/io/field_file.hpp"

#include "cartex/core/schedule.hpp"
#include "parallel_file.hpp"

namespace cartex::io {

double write_field_file(const std::string& path, const core::Config& cfg, const Provenance& prov, long step, const core::Field& u,
                        MPI_Comm comm) {
  ParallelFile f(path, prov, comm);
  h5::write_attr(f.root(), "kind", std::string("cartex fields"));
  h5::write_attr(f.root(), "layout_version", kFieldFileLayoutVersion);
  h5::write_attr(f.root(), "step", step);
  h5::write_attr(f.root(), "time", core::step_time(cfg, step));
  write_grid_attrs(f.root(), cfg.grid);
  for (const auto& name : cfg.output_fields) {
    if (name == "u")
      f.write_field(name, u, cfg.grid);
    else
      f.write_rank_field(name, u.layout, cfg.grid);
  }
  return f.commit();
}

}  // namespace cartex::io
