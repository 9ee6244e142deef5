#pragma once
// The validated run configuration, read from a YAML input file plus `--set key.path=value` overrides.
// Every key, its type, default and meaning: docs/input.md. Any problem throws InputError with one line
// "FILE:LINE:COL: key.path: what was expected" (or "--set key=value: key: ..." for an override).
#include <array>
#include <map>
#include <string>
#include <vector>

#include "cartex/core/coefficient.hpp"
#include "cartex/core/equation_input.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/core/stencil.hpp"
#include "cartex/core/wall_kinds.hpp"

namespace cartex::core {

// Initial condition.
struct InitConfig {
  std::string type = "sine";              // "sine" or "gaussian"
  double amplitude = 1.0;
  std::array<int, 3> modes{1, 1, 1};      // sine: mode number per dimension
  std::array<double, 3> center{0, 0, 0};  // gaussian: centre (physical units)
  double width = 0.1;                     // gaussian: standard deviation (physical units)
};

// One face of the domain (boundary.x.low etc., docs/input.md; ghost cells: docs/boundaries.md): its
// kind (a row of core/wall_kinds.hpp) and the kind's parameters. Both faces of a dimension are periodic
// or neither (grid.periodic decides; boundary.<d> must agree).
struct BoundaryFace {
  WallKind kind = WallKind::kDirichlet;
  double value = 0.0;         // dirichlet: the wall's value; neumann: the outward normal derivative (0 = insulated)
  RobinCoefficients robin{};  // robin: a u + b du/dn = g (a, b >= 0, a + b > 0)
};

// How the input gave the stencil (docs/input.md), kept so the resolved YAML reloads to the same Stencil.
struct StencilInput {
  enum class Form { kName, kStar, kCustom };  // a builtin or registered name (box: its builtin name),
                                              // {type: star, ...}, {offsets: ..., weights: ...}
  Form form = Form::kName;
  int order = 0;                              // star: 2, 4, 6 or 8
  std::vector<double> weights;                // custom: the weights as given (before dividing by h^derivative)
  int derivative = 2;                         // custom: stencil.derivative, 0, 1 or 2
};

// Where an input comes from: files layered left to right (a later file overrides keys of the earlier
// ones, mappings merge key by key), then every --unset, then every --set (docs/input.md).
struct InputSources {
  // kFiles: files are the input files named on the command line; kCheckpoint: --restart without
  // them, files is the one name "CHECKPOINT[input_yaml]" of the input that checkpoint stores.
  enum class Origin { kFiles, kCheckpoint };
  Origin origin = Origin::kFiles;
  std::vector<std::string> files;              // input file names, at least one
  std::map<std::string, std::string> texts;    // file name -> YAML text used instead of reading that file
  std::vector<std::string> unsets;             // "key.path": remove the key
  std::vector<std::string> sets;               // "key.path=value" (YAML); a null value removes the key
};

// comm.overlap: off, on, or auto (measured during the run, apps/driver/src/auto_stepper.hpp).
enum class OverlapInput { kOff, kOn, kAuto };

// comm.gpu_aware_mpi: whether MPI may read and write device memory (comm/halo's gpu_aware_mpi.hpp
// decides from it where halo buffers live for MPI); auto asks the MPI library at run time.
enum class GpuAwareMpiInput { kAuto, kOn, kOff };

// "auto", "on" or "off" (as in the input).
const char* gpu_aware_mpi_text(GpuAwareMpiInput g);

// halo.steps_per_exchange: a given k, or auto (kAutoSteps: measured during the run among the values
// the grid and the memory estimate allow).
constexpr long kAutoSteps = 0;

// halo.temporal_blocking: how the steps of a deep-halo cycle sweep memory (kernels/cycle_regions.hpp).
struct TemporalBlockingInput {
  enum class Mode { kAuto, kOff, kTiles };
  Mode mode = Mode::kAuto;
  long tile_y = 0;  // kTiles: rows of a tile in y
};

// Everything a run needs, resolved and checked (dt is the resolved time step).
struct Config {
  std::string source;                      // input file names, joined by " + " when layered
  std::string equation;                    // the equation's name (a row of physics/'s registry)
  std::vector<std::string> fields{"u"};    // the equation's fields, its state at one time level (EquationInput::fields)
  GlobalGrid grid;
  std::array<int, 3> process_dims{0, 0, 0};  // 0 = chosen by MPI_Dims_create
  bool reorder = false;                    // processes.reorder: each node holds a compact sub-block
  PhysicsValues physics;                   // the equation's physics keys (dt and cfl apart), read by its row
  // Physics keys of kind kCoefficient as given (a number, or a field's form; core/coefficient.hpp);
  // their PhysicsValue holds the largest value (the stability limit's).
  std::map<std::string, CoefficientInput> coefficients;
  double dt = 0.0;                         // resolved from physics.dt or physics.cfl
  double cfl = 0.0;                        // dt / dt_max
  double dt_max = 0.0;                     // stability limit of the stencil on this grid
  Stencil stencil;                         // resolved for this grid (weights include the spacing)
  StencilInput stencil_input;              // how the input spelled it
  std::array<std::array<BoundaryFace, 2>, 3> boundary{};  // [d][0 = low face, 1 = high face]
  InitConfig init;
  long steps = 100;                        // time steps (run.steps, or resolved from run.end_time)
  double end_time = 0.0;                   // run.end_time: the last step lands on it (0 = run.steps decides)
  double wall_time_limit = 0.0;            // run.wall_time_limit: seconds of wall time (0 = none)
  double wall_time_margin = 0.0;           // run.wall_time_margin: seconds kept in reserve below the limit
  long stopped_exit_code = 75;             // run.stopped_exit_code: exit code of a run stopped early with a checkpoint
  long progress_every = 0;
  std::string backend = "p2p";             // comm.backend: a row of the halo registry (checked by the app)
  OverlapInput overlap = OverlapInput::kAuto;  // comm.overlap: hide the exchange behind the interior update
  GpuAwareMpiInput gpu_aware_mpi = GpuAwareMpiInput::kAuto;  // comm.gpu_aware_mpi: MPI on device memory
  std::string allreduce = "mpi";           // comm.allreduce: global diagnostics (comm/ranks algorithm_names(), checked by the app)
  long steps_per_exchange = kAutoSteps;    // halo.steps_per_exchange: deep halos (k), or kAutoSteps
  TemporalBlockingInput temporal_blocking;  // halo.temporal_blocking: k steps per pass over memory
  std::string output_dir = "output";
  bool write_history = false;
  long output_every = 0;                   // steps between field files (0 = none); docs/output.md
  double output_every_time = 0.0;          // simulated time between field files (0 = none); excludes output_every
  std::vector<std::string> output_fields{"u"};  // fields in each field file (known_output_fields())
  long checkpoint_every = 0;               // steps between checkpoints (0 = none)
  double checkpoint_every_time = 0.0;      // simulated time between checkpoints (0 = none); excludes checkpoint_every
  long keep_checkpoints = 2;               // newest checkpoints kept on disk (0 = all)
  std::map<std::string, std::string> where;  // key path -> "FILE:LINE:COL" (or the override) of every key read,
                                             // "" -> the top level's; for checks made after loading
  std::string resolved_yaml;               // the resolved configuration as YAML (defaults filled in)
};

// The stencil the halo, the process neighborhood and the update regions are built for: cfg.stencil,
// closed along every dimension with a face that mirrors the interior (Neumann, Robin: mirror_closed). Its ghost cells at depth m mirror
// the cell m deep inside, so with a one-sided reach r_lo < r_hi the step reads, through the ghosts
// beyond the high wall, cells r_hi deep: the halo below and every deep-halo step's region must hold
// them (and a block thinner than r_hi needs them from its neighbour). docs/boundaries.md.
Stencil halo_stencil(const Config& cfg);

// Fields a run of `cfg` can write to field files (output.fields): u, rank, and every field coefficient.
std::vector<std::string> known_output_fields(const Config& cfg);

// The physics key `name` of the run when it is a field coefficient (heat's alpha as layers, gaussian,
// hdf5), else nullptr.
const CoefficientInput* field_coefficient(const Config& cfg, const std::string& name);

// Whether any physics key of the run is a field coefficient, and how many are.
bool has_field_coefficient(const Config& cfg);
int field_coefficient_count(const Config& cfg);

// "FILE:LINE:COL: key: what" for a check on `key` made after loading (e.g. against the rank count); a
// key the loader did not read is located at its nearest section that it did.
std::string input_error_text(const Config& cfg, const std::string& key, const std::string& what);

// The number of physics key `key` (physics.alpha: physics_number(cfg, "alpha")); throws Error when the
// equation has no such key or it holds a list or a mapping.
double physics_number(const Config& cfg, const std::string& key);

// Reads every file of in.files that in.texts lacks into in.texts, with the errors loading would give
// (InputError), so that loading `in` afterwards opens no input file: the apps read the files, agree
// across the ranks that every rank could and read the same bytes, and only then load, whose scan of
// an HDF5 coefficient is collective (apps/driver/src/app_main.cpp).
void read_input_files(InputSources& in);

// Reads and validates the layered input `in` for `equation`; throws InputError.
Config load_config(const InputSources& in, const EquationInput& equation);

// Reads and validates `path` with `overrides` ("key.path=value") applied for `equation`; throws InputError.
Config load_config(const std::string& path, const std::vector<std::string>& overrides, const EquationInput& equation);

}  // namespace cartex::core
