#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/cycle_regions.hpp"
#include "cartex/kernels/update_registry.hpp"
#include "gather_text.hpp"
#include "driver.hpp"
#include "summary.hpp"

namespace cartex::app {

namespace {

std::string offset_text(const core::Offset& o, int dim) { return fmt::format("({})", fmt::join(o.begin(), o.begin() + dim, ",")); }

// min and max of a per-rank value over comm.
std::pair<long, long> min_max(long v, MPI_Comm comm) {
  long mn = 0, mx = 0;
  core::check_mpi(MPI_Allreduce(&v, &mn, 1, MPI_LONG, MPI_MIN, comm), "MPI_Allreduce");
  core::check_mpi(MPI_Allreduce(&v, &mx, 1, MPI_LONG, MPI_MAX, comm), "MPI_Allreduce");
  return {mn, mx};
}

// What the run will measure for the keys set to auto (auto_stepper.hpp), or why it will not.
std::string automatic_choices_text(const Setup& s) {
  const core::Config& c = s.cfg;
  const bool k_auto = c.steps_per_exchange == core::kAutoSteps, overlap_auto = c.overlap == core::OverlapInput::kAuto;
  const bool tiles_auto = c.temporal_blocking.mode == core::TemporalBlockingInput::Mode::kAuto;
  if (!k_auto && !overlap_auto && !tiles_auto) return "";
  if (!s.measure)
    return fmt::format("automatic choices: not measured (run.steps < {}): k = {}, overlap off, default tiles\n", kMinMeasuredSteps, s.k);
  const int dim = c.grid.dim;
  std::string text = fmt::format(
      "automatic choices: measured on the run's first cycles (trials of 2 or more whole cycles and 4 or more steps, "
      "at most a quarter of the run's {} steps), the picks kept:\n",
      c.steps);
  if (k_auto) {
    const core::HaloWidths& v = s.pattern.layout.halo;
    text += fmt::format("  halo.steps_per_exchange: k = {} from {} on; fields laid out for k = {} (halo lo [{}]  hi [{}])\n",
                        fmt::join(s.k_candidates, ", "), s.k, s.k_candidates.back(), fmt::join(v.lo.begin(), v.lo.begin() + dim, ", "),
                        fmt::join(v.hi.begin(), v.hi.begin() + dim, ", "));
  }
  if (tiles_auto)
    text += fmt::format("  halo.temporal_blocking: where the picked k >= 2 blocks, tile_y = {} rows, from {} on\n",
                        fmt::join(kernels::tile_candidates(s.tile_basis), ", "), kernels::default_tile_y(s.tile_basis));
  if (overlap_auto) text += "  comm.overlap: off, then on\n";
  return text;
}

}  // namespace

void print_dry_run(const Setup& s) {
  const MPI_Comm comm = s.comm();
  int rank = 0;
  core::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const int dim = s.cfg.grid.dim;
  const halo::HaloPattern& p = s.pattern;
  const auto& L = p.layout;
  const auto coords = s.procs.coords(rank);
  std::string mine = fmt::format("rank {}: coords [{}]  box lo [{}]  n [{}]\n", rank,
                                 fmt::join(coords.begin(), coords.begin() + dim, ", "),
                                 fmt::join(L.box.lo.begin(), L.box.lo.begin() + dim, ", "),
                                 fmt::join(L.box.n.begin(), L.box.n.begin() + dim, ", "));
  for (const auto& b : p.blocks) {
    if (b.target == MPI_PROC_NULL && b.source == MPI_PROC_NULL) continue;
    const auto who = [](int r) { return r == MPI_PROC_NULL ? std::string("PROC_NULL (boundary)") : fmt::format("rank {}", r); };
    mine += fmt::format("  neighbor {:>10}  send {} cells to {}, recv {} cells from {}\n", offset_text(b.offset, dim),
                        b.send.size(), who(b.target), b.recv.size(), who(b.source));
  }
  const auto ranks_text = gather_text(mine, comm);

  // Per backend of the registry: what one exchange costs (min..max over ranks), from the plans
  // themselves. Plans that cannot run here (unavailable, or zero-copy refused by comm.gpu_aware_mpi)
  // are not built. Collective.
  std::string table;
  for (const halo::Backend& backend : halo::backends()) {
    if (std::strcmp(backend.name, "auto") == 0) continue;
    if (const auto why = halo::refusal(backend, s.memory)) {
      table += fmt::format("  {:<28} ({})\n", backend.name, *why);
      continue;
    }
    const halo::HaloStats st = backend.make({p, comm, &*s.geometry, s.cfg.gpu_aware_mpi, state_fields(s)})->stats();
    const auto m = min_max(st.messages, comm), b = min_max(st.bytes, comm), r = min_max(st.rounds, comm);
    table += fmt::format("  {:<28} {:>12} {:>22} {:>8}\n", backend.name, fmt::format("{}..{}", m.first, m.second),
                         fmt::format("{}..{}", b.first, b.second), fmt::format("{}..{}", r.first, r.second));
  }
  // Inter-node traffic of one exchange with the grid in MPI order and in node blocks. Collective.
  const Placement& pl = *s.placement;
  const ranks::Traffic in_mpi_order = exchange_traffic(p, pl.launch_layout(), pl.identity(), comm);
  const bool have_blocks = !pl.blocks().block.empty();
  const ranks::Traffic in_blocks = have_blocks ? exchange_traffic(p, pl.launch_layout(), pl.blocks(), comm) : in_mpi_order;
  // Temporal blocking of this rank's cycle: the tiles, and the deep halo's redundant ghost updates
  // (min..max over ranks). Collective.
  const int k = s.k;
  std::string tiling_reason;
  const kernels::CycleRegions cycle(L, core::halo_stencil(s.cfg), p.update,
                                    kernels::resolve_tiling(s.cfg.temporal_blocking, s.tile_basis, k,
                                                            kernels::find_update(s.cfg.stencil.name) == nullptr, tiling_reason),
                                    kernels::make_boundary(s.cfg, physics::exact_solution(*s.equation, s.cfg)).pass_rows(L));
  double redundant[2] = {-cycle.redundant_fraction(), cycle.redundant_fraction()};
  if (MPI_Allreduce(MPI_IN_PLACE, redundant, 2, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS)
    throw core::Error("MPI_Allreduce failed in --dry-run (redundant work)");
  if (rank != 0) return;
  const std::string tiling_text = fmt::format(
      "temporal blocking: {} ({}); redundant ghost updates {:.1f}%..{:.1f}% of k block updates; modelled traffic {:.1f} B "
      "per cell-update ({:.1f} one step at a time)\n",
      cycle.describe(), tiling_reason, -100 * redundant[0], 100 * redundant[1], cycle.bytes_per_update(k),
      cycle.unblocked_bytes_per_update());
  fmt::print("# resolved configuration ({})\n{}\n", s.cfg.source, s.cfg.resolved_yaml);
  fmt::print("# decomposition\nranks: {}\nprocess grid: {}\nglobal grid: {}\n", s.procs.size(),
             fmt::join(s.procs.dims.begin(), s.procs.dims.begin() + dim, "x"),
             fmt::join(s.cfg.grid.n.begin(), s.cfg.grid.n.begin() + dim, "x"));
  const core::HaloWidths& w = s.geometry->widths();
  fmt::print("halo widths: lo [{}]  hi [{}]  ({} step(s) per exchange)\n", fmt::join(w.lo.begin(), w.lo.begin() + dim, ", "),
             fmt::join(w.hi.begin(), w.hi.begin() + dim, ", "), k);
  fmt::print("{}", automatic_choices_text(s));
  fmt::print("{}", tiling_text);
  fmt::print("time step: dt = {:.6g} (cfl {:.4g} of the stability limit {:.6g})\n", s.cfg.dt, s.cfg.cfl, s.cfg.dt_max);
  if (s.cfg.end_time > 0)
    fmt::print("end time: {} = {} steps of the uniform dt {} (the last step lands on it)\n", s.cfg.end_time,
               s.cfg.steps, s.cfg.dt);
  std::string offsets;
  for (const auto& b : p.blocks) offsets += (offsets.empty() ? "" : " ") + offset_text(b.offset, dim);
  fmt::print("neighborhood: {} process offsets (the same on every rank): {}\n", p.blocks.size(), offsets);
  // The tables count one exchange of the state's fields: the messages of one field, its bytes times
  // their number. Leapfrog with k > 1 also moves the previous level each cycle (stepper.hpp).
  const auto& fields = s.equation->fields;
  const std::string state = fields_text(fields);
  const std::string per_cycle =
      s.equation->integrator == core::Integrator::kLeapfrog && k > 1
          ? fmt::format("; each cycle also moves the previous level: one exchange of {} fields without overlap (the same "
                        "messages, twice the bytes), two of {} with overlap",
                        2 * fields.size(), fields.size())
          : std::string();
  fmt::print("# halo exchange per backend (per exchange of {} and rank, min..max over ranks{})\n", state, per_cycle);
  fmt::print("  {:<28} {:>12} {:>22} {:>8}\n{}", "backend", "messages", "bytes", "rounds", table);
  fmt::print("mpi buffers: {}\n", s.memory.reason);
  fmt::print("{}", resources_text(s.resources));
  fmt::print("# output: output.dir \"{}\" checked without writing (path, permissions, file system); a run creates it "
             "and writes a probe file in it before step 1\n",
             s.cfg.output_dir);
  fmt::print("# placement: {}\n", placement_text(pl, dim));
  fmt::print("# inter-node traffic per halo exchange (of {}, all ranks, one message per non-empty block{})\n", state,
             per_cycle);
  fmt::print("  {:<24} {:>10} {:>12} {:>14} {:>14}\n", "grid order", "messages", "inter-node", "bytes", "inter-node");
  const auto n_fields = static_cast<std::int64_t>(fields.size());
  const auto traffic_row = [n_fields](const std::string& name, const ranks::Traffic& t) {
    fmt::print("  {:<24} {:>10} {:>12} {:>14} {:>14}\n", name, t.messages, t.inter_node_messages, n_fields * t.bytes,
               n_fields * t.inter_node_bytes);
  };
  traffic_row("MPI order", in_mpi_order);
  if (have_blocks)
    traffic_row(fmt::format("node blocks {}", fmt::join(pl.blocks().block.begin(), pl.blocks().block.begin() + dim, "x")), in_blocks);
  else if (pl.launch_layout().ranks_per_node() == 0)
    fmt::print("  (no node-block order: the nodes hold unequal numbers of ranks)\n");
  else
    fmt::print("  (no node-block order has fewer inter-node bytes than MPI order)\n");
  fmt::print("  in use: {} (processes.reorder: {})\n", pl.reordered() ? "node blocks" : "MPI order", s.cfg.reorder);
  // The diagnostics' allreduce of one double (NESUS'14: Ring on real ranks vs Ring* on renamed ones).
  const auto& lay = pl.layout();
  const ranks::Traffic ring = ranks::ring_traffic(lay, ranks::Renaming::identity(lay.size()), 1, 8);
  const ranks::Traffic ring_renamed = ranks::ring_traffic(lay, ranks::Renaming::sequential_for(lay), 1, 8);
  fmt::print("# diagnostics allreduce of one double (comm.allreduce: {}): inter-node messages ring {}, ring_renamed {}\n",
             s.cfg.allreduce, ring.inter_node_messages, ring_renamed.inter_node_messages);
  fmt::print("# ranks\n");
  for (const auto& t : ranks_text) fmt::print("{}", t);
}

}  // namespace cartex::app
