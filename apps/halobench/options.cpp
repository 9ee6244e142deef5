// CLI11 definition of halobench's options; lists take comma-separated values.
#include "options.hpp"

#include <CLI/CLI.hpp>

#include <string>

#include "benchstats/command_line.hpp"

namespace halobench {

int parse_options(int argc, char** argv, Options& o) {
  CLI::App app("halobench: every halo exchange backend side by side (median, 95% CI, ratio to mpi_neighbor_alltoallw)");
  std::vector<int> dims;
  app.add_option("--stencil", o.stencils, "5pt, 9pt (2D), 7pt, 27pt (3D), star:R or box:R (dimension --dim)")
      ->delimiter(',');
  app.add_option("--dim", o.dim, "dimension of star:R and box:R stencils")->check(CLI::IsMember({2, 3}));
  app.add_option("--block", o.blocks, "local block edge(s): every rank owns block^dim cells")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--k", o.k, "steps per exchange (deep halo)")->check(CLI::PositiveNumber);
  app.add_flag("--mesh", o.mesh, "non-periodic in every dimension (default: periodic)");
  app.add_option("--dims", dims, "process grid, e.g. 2,2,2 (default: like MPI_Dims_create)")->delimiter(',');
  app.add_option("--backends", o.backends, "backends to time (default: all; mpi_neighbor_alltoallw is always added)")
      ->delimiter(',');
  app.add_option("--fields", o.fields,
                 "many fields, one exchange (issue 37): for each N, time N fields exchanged together by one plan "
                 "against the same N fields exchanged one by one, per backend (e.g. 1,2,4,8)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_flag("--list-backends", o.list_backends, "print the halo backends (the halo registry), then exit");
  std::string gpu_aware_mpi = cartex::core::gpu_aware_mpi_text(o.gpu_aware_mpi);
  app.add_option("--gpu-aware-mpi", gpu_aware_mpi,
                 "auto, on or off, as the input key comm.gpu_aware_mpi: whether MPI reads device memory (off: packed "
                 "backends stage through host buffers)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  app.add_option("--warmup", o.method.warmup, "warm-up exchanges per backend");
  app.add_option("--reps", o.method.reps, "repetitions per backend and series")->check(CLI::PositiveNumber);
  app.add_option("--series", o.method.series, "series (random backend order each)")->check(CLI::PositiveNumber);
  app.add_option("--tukey", o.method.tukey, "Tukey fence factor");
  app.add_option("--seed", o.method.seed, "seed of the series order");
  app.add_option("--csv", o.csv, "write one row per (stencil, block, backend) here");
  app.add_option("--label", o.label, "free text copied into the CSV");
  app.add_flag("--kokkos-help")->description("print Kokkos' own command-line options, then exit");
  if (const int code = benchstats::parse_command_line(app, argc, argv, "halobench"); code >= 0) return code;
  for (std::size_t d = 0; d < dims.size() && d < 3; ++d) o.dims[d] = dims[d];
  using cartex::core::GpuAwareMpiInput;
  for (const auto g : {GpuAwareMpiInput::kAuto, GpuAwareMpiInput::kOn, GpuAwareMpiInput::kOff})
    if (gpu_aware_mpi == cartex::core::gpu_aware_mpi_text(g)) o.gpu_aware_mpi = g;
  return -1;
}

}  // namespace halobench
