#include "cartex/io/checkpoint.hpp"
#include "cartex/io/field_file.hpp"
#include "parallel_file.hpp"

namespace cartex::io {

double write_checkpoint(const std::string& path, const Config& cfg, const Provenance& prov, long step, const Field& u,
                        const Table& history, MPI_Comm comm) {
  ParallelFile f(path, prov, comm);
  const hid_t r = f.root();
  h5::write_attr(r, "kind", std::string("cartex checkpoint"));
  h5::write_attr(r, "layout_version", kLayoutVersion);
  h5::write_attr(r, "step", step);
  h5::write_attr(r, "time", step * cfg.dt);
  // What read_checkpoint compares with the restarting input.
  h5::write_attr(r, "grid_n", std::vector<long>(cfg.grid.n.begin(), cfg.grid.n.begin() + cfg.grid.dim));
  h5::write_attr(r, "grid_length", std::vector<double>(cfg.grid.length.begin(), cfg.grid.length.begin() + cfg.grid.dim));
  std::vector<long> periodic;
  for (int d = 0; d < cfg.grid.dim; ++d) periodic.push_back(cfg.grid.periodic[d] ? 1 : 0);
  h5::write_attr(r, "grid_periodic", periodic);
  h5::write_attr(r, "stencil", cfg.stencil.name);
  h5::write_attr(r, "dt", cfg.dt);
  write_grid_attrs(r, cfg.grid);
  f.write_field("u", u, cfg.grid);
  f.write_table("history", history);
  return f.commit();
}

}  // namespace cartex::io
