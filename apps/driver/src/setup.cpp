#include <fmt/format.h>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <stdexcept>

#include "cartex/core/agreement.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/io/coefficient_file.hpp"
#include "cartex/io/output_dir.hpp"
#include "cartex/kernels/coefficient_field.hpp"
#include "comm_choices.hpp"
#include "driver.hpp"
#include "restart_coefficients.hpp"

namespace cartex::app {

namespace {

// halo.steps_per_exchange: a given k is checked against the grid (located error); auto measures 1, 2,
// 4 and 8 where the grid is deep enough, each k's memory estimate is within kAutoMemoryGrowth of
// k = 1's and the estimate of all of them fits the node (else the deepest are dropped), starting at 4
// (or the deepest below it), when the run is long enough; else k = 1. The resource check throws the
// located error for the last candidate standing. Collective.
void choose_k_candidates(Setup& s, MPI_Comm launch) {
  const core::Config& c = s.cfg;
  std::vector<int> ks;
  s.measure = c.steps >= kMinMeasuredSteps;
  if (c.steps_per_exchange != core::kAutoSteps) {
    try {
      halo::check_halo_depth(c.grid, core::halo_stencil(c), c.steps_per_exchange);
    } catch (const std::invalid_argument& e) {
      throw core::InputError(core::input_error_text(c, "halo.steps_per_exchange", e.what()));
    }
    ks = {static_cast<int>(c.steps_per_exchange)};
  } else {
    ks = {1};
    for (int k = 2; s.measure && k <= 8; k *= 2) {
      try {
        halo::check_halo_depth(c.grid, core::halo_stencil(c), k);
      } catch (const std::invalid_argument&) {
        break;
      }
      ks.push_back(k);
    }
    ks = within_memory_growth(c, state_fields(s), static_cast<int>(physics::state_names(*s.equation).size()), s.decomp, launch, ks);
  }
  for (;;) {
    try {
      s.resources = check_resources(c, state_fields(s), static_cast<int>(physics::state_names(*s.equation).size()), s.decomp,
                                    launch, ks);
      break;
    } catch (const core::InputError&) {
      if (ks.size() == 1) throw;
      ks.pop_back();
    }
  }
  s.k_candidates = ks;
  s.k = ks.front();
  for (int k : ks)
    if (k <= 4) s.k = k;
}

// init.type must be one the equation accepts (every row takes sine and gaussian today).
void check_initial_condition(const physics::Equation& equation, const core::Config& c) {
  const auto& accepted = equation.initial_conditions;
  if (std::find(accepted.begin(), accepted.end(), c.init.type) == accepted.end())
    throw core::InputError(core::input_error_text(c, "init.type", fmt::format("the {} equation accepts {}, not {}", equation.name,
                                                                             fmt::join(accepted, " or "), c.init.type)));
}

// Every field coefficient of the run (a physics key given as a field: heat's alpha) on `layout`: its
// form, or this rank's block and halo of the HDF5 dataset, which loading the input has checked already.
physics::CoefficientFields make_coefficient_fields(const core::Config& cfg, const core::FieldLayout& layout) {
  physics::CoefficientFields fields;
  for (const auto& [key, a] : cfg.coefficients) {
    if (!a.is_field()) continue;
    fields[key] = a.form != core::CoefficientInput::Form::kHdf5
                      ? std::make_shared<const core::Field>(kernels::make_coefficient_field(a, cfg.grid, layout))
                      : std::make_shared<const core::Field>(kernels::coefficient_field_from_values(
                            io::read_coefficient_file(a.file, a.dataset, cfg.grid, layout), layout));
  }
  return fields;
}

}  // namespace

// A wall that follows the exact solution needs one for this configuration (advection-diffusion's holds
// only where every dimension is periodic or between exact walls).
void check_exact_walls(const physics::Equation& equation, const core::Config& c) {
  for (int d = 0; d < c.grid.dim; ++d)
    for (int side = 0; side < 2; ++side)
      if (core::wall_kind_row(c.boundary[d][side].kind).needs_exact && !physics::exact_solution(equation, c))
        throw core::InputError(core::input_error_text(
            c, fmt::format("boundary.{}.{}", "xyz"[d], side == 0 ? "low" : "high"),
            fmt::format("dirichlet: exact follows the exact solution, which the {} equation does not have for this input "
                        "(docs/equations.md says when each equation has one)",
                        equation.name)));
}

Setup make_setup(const std::string& app, const physics::Equation& equation, const core::InputSources& input, MPI_Comm launch) {
  int rank = 0, size = 1;
  core::check_mpi(MPI_Comm_rank(launch, &rank), "MPI_Comm_rank");
  core::check_mpi(MPI_Comm_size(launch, &size), "MPI_Comm_size");
  Setup s;
  s.app = app;
  s.input = input;
  core::require(!equation.fields.empty() && equation.dt_max && equation.make_update,
                "make_setup: an equation row without fields, dt_max or update");
  s.equation = &equation;
  // Each step below that a rank takes from its own data is agreed across the ranks before the next
  // collective (core/agreement.hpp): the input (the same bytes on every rank, app_main.cpp) and the
  // checks made from it, the environment the resource check and the placement read, the geometry.
  core::agree(launch, [&] {
    s.cfg = core::load_config(input, physics::loader_input(equation));
    check_initial_condition(equation, s.cfg);
    check_exact_walls(equation, s.cfg);
    s.memory = halo::mpi_memory(s.cfg.gpu_aware_mpi);
    check_comm_choices(s.cfg, s.memory);
    // Bounded before anything is built: a halo deeper than the grid would make set-up grind. A stencil
    // that does not fit the grid at all is the grid's (or the stencil's) fault, not the halo depth's.
    try {
      halo::check_stencil_fits(s.cfg.grid, s.cfg.stencil);
    } catch (const std::invalid_argument& e) {
      throw core::InputError(core::input_error_text(s.cfg, "grid.n", e.what()));
    }
    try {
      s.procs = core::ProcessGrid::create(s.cfg.grid, s.cfg.process_dims, size);
    } catch (const std::invalid_argument& e) {
      throw core::InputError(core::input_error_text(s.cfg, "processes.dims", e.what()));
    }
    s.decomp = core::Decomposition(s.cfg.grid, s.procs);
  });
  s.auto_try_all = core::agreed_env(launch, "CARTEX_AUTO_TRY_ALL") == "1";
  choose_k_candidates(s, launch);
  const int k_max = *std::max_element(s.k_candidates.begin(), s.k_candidates.end());
  core::agree(launch, [&] {
    try {
      const double t0 = MPI_Wtime();
      const core::Stencil reach = core::halo_stencil(s.cfg);
      s.geometry.emplace(s.decomp, reach, s.k);
      s.pattern = halo::make_halo_pattern(*s.geometry, rank, halo::halo_widths(s.cfg.grid, reach, k_max));
      s.pattern_seconds = MPI_Wtime() - t0;
    } catch (const std::invalid_argument& e) {
      throw core::InputError(core::input_error_text(s.cfg, s.k > 1 ? "halo.steps_per_exchange" : "stencil", e.what()));
    }
  });
  s.placement = std::make_shared<const Placement>(s.cfg, s.procs, s.pattern, launch);
  if (s.placement->reordered()) {
    core::check_mpi(MPI_Comm_rank(s.comm(), &rank), "MPI_Comm_rank");
    s.pattern = halo::make_halo_pattern(*s.geometry, rank, s.pattern.layout.halo);  // the rank's new grid position
  }
  // The same tile candidates on every rank, whatever its own rows (kernels::TileBasis).
  const kernels::TileBasis own = kernels::TileBasis::of(s.pattern.layout);
  long basis[2] = {own.rows, own.threads};
  core::check_mpi(MPI_Allreduce(MPI_IN_PLACE, basis, 2, MPI_LONG, MPI_MAX, s.comm()), "MPI_Allreduce");
  s.tile_basis = {basis[0], static_cast<int>(basis[1])};
  s.coefficients = make_coefficient_fields(s.cfg, s.pattern.layout);
  return s;
}

namespace {

// output.dir as the --unset and --set options give it (the default "output" else): where --restart
// latest looks without an input file. Every --unset comes before every --set (docs/input.md).
std::string output_dir_of_overrides(const core::InputSources& in) {
  std::string dir = "output";
  const std::string key = "output.dir=";
  for (const auto& set : in.sets) {
    if (set.compare(0, key.size(), key) != 0) continue;
    try {
      const YAML::Node value = YAML::Load(set.substr(key.size()));
      dir = value.IsScalar() ? value.as<std::string>() : std::string("output");
    } catch (const YAML::Exception&) {
      // Not YAML: loading the input reports it, located at this --set.
    }
  }
  return dir;
}

}  // namespace

std::string resolve_restart(const std::string& restart, core::InputSources& in, const physics::Equation& equation) {
  const std::string dir = restart != "latest"   ? std::string()
                          : in.files.empty() ? output_dir_of_overrides(in)
                                             : core::load_config(in, physics::loader_input(equation)).output_dir;
  try {
    const std::string path = restart == "latest" ? io::newest_checkpoint(dir) : restart;
    if (in.files.empty()) {
      const std::string name = path + "[input_yaml]";  // how errors in the embedded input name it
      in.texts[name] = io::checkpoint_input(path);
      in.files = {name};
      in.origin = core::InputSources::Origin::kCheckpoint;
    }
    return path;
  } catch (const core::InputError& e) {
    const std::string what = e.what();
    throw core::InputError(restart == "latest" ? "--restart latest: " + what : "--restart " + what);
  }
}

void load_restart(Setup& s, const std::string& path) {
  int rank = 0;
  core::check_mpi(MPI_Comm_rank(s.comm(), &rank), "MPI_Comm_rank");
  try {
    s.restart = io::read_checkpoint(path, s.cfg, s.decomp.box(rank), restart_field_names(s), physics::equation_names());
    check_restart_coefficients(s);
  } catch (const core::InputError& e) {
    throw core::InputError(fmt::format("--restart {}", e.what()));
  }
}

void prepare_output(const Setup& s, MPI_Comm launch) {
  int rank = 0;
  core::check_mpi(MPI_Comm_rank(launch, &rank), "MPI_Comm_rank");
  if (rank != 0) return;
  if (const std::string why = io::prepare_output_dir(s.cfg.output_dir); !why.empty())
    throw core::InputError(core::input_error_text(s.cfg, "output.dir", why));
}

}  // namespace cartex::app
