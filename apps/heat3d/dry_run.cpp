#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gather_text.hpp"
#include "heat_run.hpp"

namespace cartex::heat {

namespace {

std::string dims_text(const std::array<long, 3>& a, int dim) { return fmt::format("{}", fmt::join(a.begin(), a.begin() + dim, "x")); }

}  // namespace

void print_dry_run(const Setup& s, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int dim = s.cfg.grid.dim;
  const auto& L = s.regions.layout;
  std::string mine = fmt::format("rank {}: coords [{}]  box lo [{}]  n [{}]\n", rank,
                                 fmt::join(s.procs.coords(rank).begin(), s.procs.coords(rank).begin() + dim, ", "),
                                 fmt::join(L.box.lo.begin(), L.box.lo.begin() + dim, ", "),
                                 fmt::join(L.box.n.begin(), L.box.n.begin() + dim, ", "));
  for (const auto& n : s.regions.neighbors) {
    mine += fmt::format("  neighbor ({:>2}) -> {}  send {} cells, recv {} cells\n",
                        fmt::join(n.offset.begin(), n.offset.begin() + dim, ","),
                        n.rank == MPI_PROC_NULL ? std::string("PROC_NULL (boundary)") : fmt::format("rank {}", n.rank),
                        n.rank == MPI_PROC_NULL ? 0 : n.send.cells(), n.rank == MPI_PROC_NULL ? 0 : n.recv.cells());
  }
  auto all = gather_text(mine, comm);
  if (rank != 0) return;
  fmt::print("# resolved configuration ({})\n{}\n", s.cfg.source, s.cfg.resolved_yaml);
  fmt::print("# decomposition\nranks: {}\nprocess grid: {}\nglobal grid: {}\n", s.procs.size(),
             fmt::join(s.procs.dims.begin(), s.procs.dims.begin() + dim, "x"), dims_text(s.cfg.grid.n, dim));
  fmt::print("halo widths: lo [{}]  hi [{}]\n", fmt::join(L.halo.lo.begin(), L.halo.lo.begin() + dim, ", "),
             fmt::join(L.halo.hi.begin(), L.halo.hi.begin() + dim, ", "));
  fmt::print("time step: dt = {:.6g} (cfl {:.4g} of the stability limit {:.6g})\n", s.cfg.dt, s.cfg.cfl, s.cfg.dt_max);
  for (const auto& t : all) fmt::print("{}", t);
}

}  // namespace cartex::heat
