#pragma once
// Internal parts of the app driver (include/cartex/app/driver.hpp): set-up, dry run, time loop.
#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/decomposition.hpp"
#include "cartex/halo/geometry.hpp"
#include "cartex/halo/gpu_aware_mpi.hpp"
#include "cartex/halo/pattern.hpp"
#include "cartex/io/checkpoint.hpp"
#include "cartex/kernels/cycle_regions.hpp"
#include "cartex/physics/equation.hpp"
#include "placement.hpp"
#include "resources.hpp"

namespace cartex::app {

// Everything decided before the run: validated config and this rank's place in the decomposition.
// Ranks are those of comm() (the launch communicator, or its node-reordered copy).
struct Setup {
  std::string app;      // the program's name, for the summary and provenance
  std::string program;  // the program as invoked (argv[0]), for the restart command
  double started = MPI_Wtime();         // when the set-up began: run.wall_time_limit counts from here
  core::InputSources input;                   // the input files and overrides, for the restart command
  const physics::Equation* equation = nullptr;  // the row of the equation the app solves (never null once set up)
  core::Config cfg;
  core::ProcessGrid procs;
  core::Decomposition decomp{core::GlobalGrid{}, core::ProcessGrid{}};
  ResourceEstimate resources;            // the memory and set-up work estimated before set-up
  halo::MpiMemory memory;                // comm.gpu_aware_mpi decided: where MPI reads and writes halo data
  // halo.steps_per_exchange: k of `geometry` and `pattern` (auto: where the measurement starts) and
  // the values auto measures ({k} when given, {1} when the run is too short to measure); whether the
  // run is long enough for the automatic choices to be measured (auto_stepper.hpp).
  int k = 1;
  std::vector<int> k_candidates{1};
  bool measure = false;
  bool auto_try_all = false;  // CARTEX_AUTO_TRY_ALL=1 (agreed across the ranks): auto tries every candidate
  std::optional<halo::HaloGeometry> geometry;  // where every halo cell comes from (all ranks), built once
  double pattern_seconds = 0;                  // building geometry and pattern (auto predicts another k's from it)
  halo::HaloPattern pattern;                   // this rank's halo blocks and update regions, laid out for
                                               // the deepest k candidate
  kernels::TileBasis tile_basis;               // auto's tile heights: the largest view and threads of all ranks
  // The field coefficients (physics keys of kind kCoefficient given as a field, e.g. heat's alpha) on
  // pattern.layout, halo included (built once, never exchanged: kernels/coefficient_field.hpp), by key.
  physics::CoefficientFields coefficients;
  std::optional<io::Checkpoint> restart;  // --restart: the checked checkpoint with this rank's block
  std::shared_ptr<const Placement> placement;  // node layout, grid assignment, the run's communicator

  MPI_Comm comm() const { return placement->comm(); }
};

// The fields of the equation's state at one time level (physics::Equation::fields).
inline int state_fields(const Setup& s) { return static_cast<int>(s.equation->fields.size()); }

// Runs shorter than this keep the automatic choices unmeasured: k = 1, no overlap, default tiles.
constexpr long kMinMeasuredSteps = 100;

// Reads the input, decides the decomposition and the placement of grid positions on ranks of
// `launch`; throws InputError (deterministic on every rank). Collective.
Setup make_setup(const std::string& app, const physics::Equation& equation, const core::InputSources& input, MPI_Comm launch);

// The checkpoint `restart` names (a path, or "latest": the newest valid one in output.dir of the
// input; without an input file, in the last --set output.dir, or "output"); without input files,
// makes `in` the checkpoint's own input. On this rank alone; throws InputError "--restart ...: what".
std::string resolve_restart(const std::string& restart, core::InputSources& in, const physics::Equation& equation);

// Checks checkpoint `path` against the set-up and reads this rank's block (no communication);
// throws InputError "--restart PATH: what".
void load_restart(Setup& s, const std::string& path);

// Creates output.dir and writes a probe file in it on rank 0 of `launch` (the other ranks do nothing;
// run_collectively agrees on the outcome); throws InputError located at output.dir.
void prepare_output(const Setup& s, MPI_Comm launch);

// Prints the resolved configuration, process grid, boxes, halo widths and neighbors (collective).
void print_dry_run(const Setup& s);

// Runs the time loop and prints progress and the summary (collective); returns the exit code: 0,
// run.stopped_exit_code when a signal or the wall-time limit stopped it, 1 when a file written after
// the last step failed (reported after the summary).
int run(const Setup& s);

}  // namespace cartex::app
