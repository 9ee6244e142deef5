// The input schema's rows (input_keys.hpp, input_schema.hpp). A new key is one row here: its path,
// type, default, meaning, when it applies, its value in the resolved YAML and, for a value checked on
// its own, how it is read into its Config member (`into`); the loader, --help-input and the tables of
// docs/input.md (`input_docs --update`) follow. Only a key checked against other keys also needs a
// line in its section's reader (config.cpp).
#include "cartex/core/input_keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <type_traits>

#include "coefficient_input.hpp"
#include "input_schema.hpp"
#include "output_dir_check.hpp"
#include "resolved_yaml.hpp"
#include "walls/wall_face.hpp"
#include "yaml_reader.hpp"

namespace cartex::core {

std::string KeyDefault::shown() const {
  switch (kind) {
    case Kind::kValue: return text;
    case Kind::kRequired: return text.empty() ? "required" : fmt::format("required ({})", text);
    case Kind::kDerived: return text;
    case Kind::kNone: return "-";
  }
  return "-";
}

namespace detail {

namespace {

using V = std::optional<YAML::Node>;
using D = KeyDefault;

const char* const kAxis[3] = {"x", "y", "z"};
const char* const kFamily = "the stencil is a family (`stencil.type` `star` or `box`)";
const char* const kCustom = "the stencil is custom (`stencil.offsets` and `stencil.weights`)";
const char* const kFaceMap = "the dimension's `boundary` value is a mapping";

// A row whose value is always written.
template <class F>
ResolvedValue always(F f) {
  return [f](const Config& c) -> V { return f(c); };
}

// Reads the key as T (its phrase in errors: `expected`) into the Config member `at` returns, after
// `check` (the value -> "" when fine, else what is wrong).
template <class T>
T read_as(YamlSection& s, const std::string& name, const std::string& expected) {
  if constexpr (std::is_same_v<T, long>) return s.get_long(name, expected);
  if constexpr (std::is_same_v<T, double>) return s.get_double(name, expected);
  if constexpr (std::is_same_v<T, bool>) return s.get_bool(name, expected);
  if constexpr (std::is_same_v<T, std::string>) return s.get_string(name, expected);
}

template <class T, class At>
ReadValue into(At at, std::string expected, std::function<std::string(const T&)> check = {}) {
  return [at, expected, check](YamlSection& s, const std::string& name, Config& c) {
    const T v = read_as<T>(s, name, expected);
    if (check)
      if (const std::string why = check(v); !why.empty()) s.fail(name, why);
    at(c) = v;
  };
}

std::string non_negative(const long& v) { return v < 0 ? fmt::format("expected a non-negative integer, got {}", v) : ""; }

// The rows of the keys every equation has, the physics keys of the equation left out.
std::vector<SchemaRow> common_rows() {
  std::vector<SchemaRow> rows = {
      {{"grid.n", "list of 2 or 3 positive integers", D::required(),
        "cells per dimension; two entries make a 2D run. Each entry is at most 2^30 (a rank's extent and halos stay "
        "within MPI's int counts) and all of them together at most 2^50 cells, so no count overflows; what fits the "
        "machine's memory is smaller still",
        ""},
       always([](const Config& c) { return dims_node(c.grid.n, c.grid.dim); })},
      {{"grid.length", "number or list of positive numbers", D::value("1.0"), "physical length per dimension", ""},
       always([](const Config& c) { return dims_node(c.grid.length, c.grid.dim); })},
      {{"grid.periodic", "bool or list of bools", D::value("true"),
        "periodic dimensions; the others have walls (`boundary`; Dirichlet 0 unless given)", ""},
       always([](const Config& c) { return dims_node(c.grid.periodic, c.grid.dim); })},
      {{"processes.dims", "non-negative integer or list", D::value("0"),
        "processes per dimension; `0` entries are chosen by `MPI_Dims_create`, the largest going to the dimension "
        "slowest in memory (z in 3D, y in 2D). The product must divide (all given: equal) the rank count, and no "
        "dimension may have more processes than cells.",
        ""},
       always([](const Config& c) { return dims_node(c.process_dims, c.grid.dim); })},
      {{"processes.reorder", "bool", D::value("false"),
        "give every node a compact sub-block of the process grid (the rank renaming of Rico-Gallego and "
        "Díaz-Martín, NESUS 2014, carried to the grid; [graph.md](graph.md)): among the blocks that tile the grid "
        "with one block per node, the one with the fewest inter-node halo bytes is used when it beats MPI order; the "
        "run then works on a communicator in which rank `g` holds grid position `g`. Needs equal ranks per node; "
        "results are bitwise the same. `--dry-run` prints the inter-node messages and bytes of one exchange in both "
        "orders.",
        ""},
       always([](const Config& c) { return YAML::Node(c.reorder); }),
       into<bool>([](Config& c) -> bool& { return c.reorder; }, "true or false")},
      {{"physics.dt", "positive number", D::none(), "time step; must not exceed the stability limit (give `dt` or `cfl`)",
        ""},
       // The resolved step only (not cfl too), so the resolved YAML is a valid input.
       always([](const Config& c) { return value_node(c.dt); })},
      {{"physics.cfl", "number in (0, 1]", D::none(),
        "time step as a fraction of the stability limit, `dt / dt_max` (give `dt` or `cfl`)", ""},
       {}},
      {{"stencil", "string or mapping", D::derived("`7pt` in 3D, `5pt` in 2D"),
        "the operator `L`: a builtin Laplacian name (`5pt`, `9pt` in 2D; `7pt`, `27pt` in 3D), a name the program "
        "registered in C++, or a mapping: a family (`type`) or a custom stencil (`offsets` and `weights`)",
        ""},
       always(stencil_node)},
      {{"stencil.type", "`star` or `box`", D::none(), "the family; required unless `offsets` and `weights` are given",
        kFamily},
       {}},
      {{"stencil.order", "`2`, `4`, `6` or `8`", D::derived("star: —; box: `2`"),
        "star: order of accuracy `p`; box: only `2`", kFamily},
       {}},
      {{"stencil.radius", "`1` to `4`", D::derived("star: —; box: `1`"),
        "star: reach along each axis, `p/2`; give `order`, `radius` or both (they must agree); box: only `1`", kFamily},
       {}},
      {{"stencil.offsets", "list of `[dx, dy]` (2D) or `[dx, dy, dz]` (3D) integers", D::required("custom"),
        "the points relative to the cell, each once; their order is the order in which kernels add them; no offset "
        "may reach further than the grid has cells in that dimension",
        kCustom},
       {}},
      {{"stencil.weights", "list of numbers", D::required("custom"),
        "one per offset, in the same order, for unit spacing (see `stencil.derivative`); finite, not all 0, any sum "
        "(a non-zero sum is a reaction term)",
        kCustom},
       {}},
      {{"stencil.derivative", "`0`, `1` or `2`", D::value("2"),
        "the derivative the weights approximate, so cartex divides them by `h^derivative`: `2` a second derivative "
        "(h²), `1` a first derivative (h), `0` a value such as a reaction rate, or weights already for this grid "
        "(used as given); `h` is the spacing of the dimensions the stencil reaches, which must be equal "
        "([stencils.md](stencils.md#custom-stencils-in-the-input))",
        kCustom},
       {}},
      {{"stencil.divide_by_h2", "—", D::none(),
        "replaced by `stencil.derivative`: an error that gives the new spelling (`true` is `derivative: 2`, `false` "
        "is `derivative: 0`)",
        kCustom},
       {}},
      {{"stencil.name", "string", D::value("custom"),
        "the name in the summary, checkpoints and the resolved configuration; not a builtin, `star2`…`star8` or "
        "registered name",
        kCustom},
       {}},
  };
  for (int d = 0; d < 3; ++d)
    rows.push_back({{fmt::format("boundary.{}", kAxis[d]),
                     "list `[low, high]` of numbers, `periodic`, or a mapping `{low: ..., high: ...}`",
                     D::derived("`[0, 0]` (periodic dimension: `periodic`)"),
                     "the walls of one dimension: `[low, high]` is the Dirichlet shorthand (`[a, b]` = `{low: {dirichlet: "
                     "a}, high: {dirichlet: b}}`), `periodic` only for a dimension `grid.periodic` makes periodic",
                     ""},
                    [d](const Config& c) { return boundary_node(c, d); }});
  for (int d = 0; d < 3; ++d)
    for (const char* side : {"low", "high"})
      rows.push_back({{fmt::format("boundary.{}.{}", kAxis[d], side),
                       wall_face_input_type(), D::derived("`{dirichlet: 0}` (periodic dimension: `periodic`)"),
                       "one wall: its Dirichlet value, `exact` (`init.type` must be `sine`), its Neumann outward "
                       "normal derivative ∂u/∂n (0 = insulated), or the Robin condition a u + b ∂u/∂n = g (a, b "
                       "finite and ≥ 0, a + b > 0; all three keys required; b = 0 is a Dirichlet value g / a half a "
                       "cell outside, a = 0 a Neumann derivative g / b)",
                       kFaceMap},
                      {}});
  const auto sine = [](const Config& c) { return c.init.type == "sine"; };
  std::vector<SchemaRow> rest = {
      {{"init.type", "`sine` or `gaussian`", D::value("sine"), "initial condition", ""},
       always([](const Config& c) { return YAML::Node(c.init.type); })},
      {{"init.amplitude", "number", D::value("1.0"), "amplitude A", ""},
       always([](const Config& c) { return value_node(c.init.amplitude); }),
       into<double>([](Config& c) -> double& { return c.init.amplitude; }, "a finite number")},
      {{"init.modes", "positive integer or list", D::value("1"),
        "`A·Π_d sin(k_d x_d)` with `k_d = 2π·m_d/L_d` (periodic) or `π·m_d/L_d` (walls); the walls' eigenmode "
        "with Neumann walls: `cos` where the low wall is Neumann, `k_d = π·(m_d − ½)/L_d` between a Dirichlet and a "
        "Neumann wall ([boundaries.md](boundaries.md#the-sine-mode))",
        "`init.type` is `sine`"},
       [sine](const Config& c) -> V { return sine(c) ? V(dims_node(c.init.modes, c.grid.dim)) : std::nullopt; }},
      {{"init.center", "number or list", D::derived("the domain centre"), "centre c (physical coordinates)",
        "`init.type` is `gaussian`"},
       [sine](const Config& c) -> V { return sine(c) ? std::nullopt : V(dims_node(c.init.center, c.grid.dim)); }},
      {{"init.width", "positive number", D::value("0.1"), "`A·exp(−|x−c|²/(2w²))`", "`init.type` is `gaussian`"},
       [sine](const Config& c) -> V { return sine(c) ? std::nullopt : V(value_node(c.init.width)); }},
      {{"run.steps", "non-negative integer", D::value("100"),
        "time steps, at most 10^15 (so step counts and times stay exact); not together with `run.end_time`", ""},
       [](const Config& c) -> V { return c.end_time > 0 ? std::nullopt : V(YAML::Node(c.steps)); }},
      {{"run.end_time", "positive number", D::none(),
        "stop at this simulated time instead of after `run.steps`: the run takes n = ceil(end_time / dt) steps of the "
        "uniform dt = end_time / n (never larger than the dt from `physics.dt`/`physics.cfl`, so the stability limit "
        "and the exact discrete sine solution still hold) and the last step lands on end_time exactly; the resolved "
        "`physics.dt` is that uniform dt, and the dry run and the summary print n and dt. A ratio end_time / dt "
        "within 1e-9 of an integer counts as that integer. Giving both `run.steps` and `run.end_time` is an error, "
        "and so is an end_time / dt beyond 10^15 steps",
        ""},
       // With the resolved dt, it reloads to the same steps.
       [](const Config& c) -> V { return c.end_time > 0 ? V(value_node(c.end_time)) : std::nullopt; }},
      {{"run.wall_time_limit", "non-negative number", D::value("0"),
        "seconds of wall time the run may take, counted from the start of the set-up (just after `MPI_Init`); `0`: "
        "no limit. When the next check would come too late (the measured time per step, the longest output write so "
        "far and `run.wall_time_margin` are all counted) the run stops like on SIGTERM: it finishes the step, writes "
        "a checkpoint, prints the restart command and exits with `run.stopped_exit_code` "
        "([output.md](output.md#stopping-early-signals-and-the-wall-time-limit))",
        ""},
       always([](const Config& c) { return value_node(c.wall_time_limit); }),
       into<double>([](Config& c) -> double& { return c.wall_time_limit; }, "a non-negative number (seconds, 0 = no limit)",
                    [](const double& v) {
                      return v >= 0 ? "" : fmt::format("expected a non-negative number (seconds, 0 = no limit), got {}", v);
                    })},
      {{"run.wall_time_margin", "non-negative number", D::value("0"),
        "seconds kept in reserve below `run.wall_time_limit` for what cartex cannot measure (a slower checkpoint than "
        "the ones before, `MPI_Finalize`, the job's epilogue); only with a limit, and less than it",
        ""},
       [](const Config& c) -> V { return c.wall_time_limit > 0 ? V(value_node(c.wall_time_margin)) : std::nullopt; }},
      {{"run.stopped_exit_code", "0 or integer 3..125", D::value("75"),
        "exit code of a run stopped early with a checkpoint (a signal or `run.wall_time_limit`), so that a batch "
        "script knows to resubmit it without reading stdout; 75 is `EX_TEMPFAIL` of sysexits.h (\"try again "
        "later\"). `0`: exit like a finished run. 1 and 2 mean failure and bad input, above 125 shells report "
        "signals, so those are refused ([output.md](output.md#exit-codes))",
        ""},
       always([](const Config& c) { return YAML::Node(c.stopped_exit_code); }),
       into<long>([](Config& c) -> long& { return c.stopped_exit_code; }, "0 or an integer 3..125 (exit code of a stopped run)",
                  [](const long& v) {
                    return v == 0 || (v >= 3 && v <= 125)
                               ? ""
                               : fmt::format("expected 0 or an integer 3..125 (1, 2: failures; above 125: signals), got {}", v);
                  })},
      {{"run.progress_every", "non-negative integer", D::value("0"),
        "rank 0 prints a progress record (step, time, `integral=` the integral of u — for heat the total heat —, "
        "max, sine error, ETA) every N steps; `0`: none. On an interactive terminal the record rewrites one line; "
        "under `mpiexec` (which gives ranks a pseudo-terminal even when output goes to a file) every record is a "
        "line.",
        ""},
       always([](const Config& c) { return YAML::Node(c.progress_every); }),
       into<long>([](Config& c) -> long& { return c.progress_every; }, "a non-negative integer (0 = no progress lines)",
                  non_negative)},
      {{"comm.backend", "string", D::value("p2p"),
        "halo exchange backend, one of `p2p`, `mpi_neighbor_alltoallw`, `cart_direct`, `cart_combining`, "
        "`cart_combining_packed`, `cart_forwarding`, `graph_combining`, `p2p_persistent`, "
        "`mpi_neighbor_alltoallw_init`, `auto` (`heat3d --list-backends` prints them; the zero-copy ones are refused "
        "where `comm.gpu_aware_mpi` says MPI cannot take the field's device memory; `auto` times the others at "
        "start-up and keeps the fastest; the summary says which and why); see [backends.md](backends.md)",
        ""},
       always([](const Config& c) { return YAML::Node(c.backend); }),
       // The names are checked by the layers that own them (the app asks the halo registry).
       into<std::string>([](Config& c) -> std::string& { return c.backend; }, "a backend name")},
      {{"comm.allreduce", "string", D::value("mpi"),
        "allreduce of the global diagnostics (sum, min/max, sine error, checksum): `mpi` (`MPI_Allreduce`), `ring` "
        "(the Ring algorithm on MPI ranks) or `ring_renamed` (Ring*, ranks renamed so consecutive ring members share "
        "a node; Rico-Gallego and Díaz-Martín, NESUS 2014). The field is unaffected; min, max and the checksum are "
        "bitwise equal for all three, floating-point sums differ only by rounding (Ring adds in a fixed documented "
        "order, see [graph.md](graph.md#ring-and-ring)).",
        ""},
       always([](const Config& c) { return YAML::Node(c.allreduce); }),
       into<std::string>([](Config& c) -> std::string& { return c.allreduce; }, "an allreduce algorithm name")},
      {{"comm.overlap", "`true`, `false` or `auto`", D::value("auto"),
        "`auto`: measured on the run's first cycles, off then on, and kept where it is faster ([Automatic "
        "choices](#automatic-choices-auto)). `true`: start the exchange, update the cells that read only the block "
        "in chunks of whole lines (2^19 stencil-point updates each) calling the plan's `progress()` after each chunk "
        "(it unpacks completed phases and posts the next ones), finish the exchange, update the rim; the summary "
        "reports the share of a blocking exchange's time that was hidden and the overlapped step's time against a "
        "blocking step's, both timed in the same run "
        "([output.md](output.md#the-summarys-overlap-lines-commoverlap-true)) (`graph_combining`, whose exchange is "
        "one blocking call, hides nothing). With `halo.temporal_blocking` blocking a cycle and a backend that copies "
        "its block at start (`p2p`, `p2p_persistent`, `auto` when it picks one), the whole pass overlaps the "
        "exchange: start, the inner cells of steps 1..k (those whose dependencies stay clear of the halo in flight: "
        "D_j = j·r cells inside each face in flight) in one blocked pass with `progress()` between its tiles, "
        "finish, then the thin rims of steps 1..k one by one (`halo::split_cycle`, "
        "`comm/halo/include/cartex/halo/pattern.hpp`); bitwise the same. With the other backends (they read the "
        "field after start) and for a pass cut short before step 2, step 1 overlaps as above and steps 2..k are "
        "blocked after it. Where a rank has a spare core, Open MPI's TCP progress thread "
        "(`OMPI_MCA_btl_tcp_progress_thread=1`) moves messages between the progress calls too; measured slower "
        "without one ([performance.md](performance.md))",
        ""},
       always([](const Config& c) {
         return c.overlap == OverlapInput::kAuto ? YAML::Node("auto") : YAML::Node(c.overlap == OverlapInput::kOn);
       }),
       [](YamlSection& s, const std::string& name, Config& c) {
         if (s.is_auto(name)) return void(c.overlap = OverlapInput::kAuto);
         c.overlap = s.get_bool(name, "true, false or auto") ? OverlapInput::kOn : OverlapInput::kOff;
       }},
      {{"comm.gpu_aware_mpi", "`auto`, `on` or `off`", D::value("auto"),
        "whether MPI may read and write device memory, for fields in a device memory space (Kokkos with CUDA or "
        "HIP): `auto` asks the MPI library at run time about the compiled-in GPU (Open MPI's "
        "`MPIX_Query_cuda_support()` / `MPIX_Query_rocm_support()`, MPICH's `MPIX_GPU_query_support`; no answer "
        "counts as no); `on` trusts it; `off` never hands MPI device memory. Packed backends then hand MPI their "
        "pack buffers, or stage them through separate host buffers (always with `off`, also on the host, where it "
        "makes the copies of a GPU run); zero-copy backends run only where MPI may take the field's memory (always "
        "on the host) and are an input error at `comm.backend` otherwise. The summary's `mpi buffers` line says "
        "what was decided and why ([backends.md](backends.md#device-memory))",
        ""},
       always([](const Config& c) { return YAML::Node(gpu_aware_mpi_text(c.gpu_aware_mpi)); }),
       [](YamlSection& s, const std::string& name, Config& c) {
         constexpr const char* kExpected = "auto, on or off";
         const std::string mode = s.get_string(name, kExpected);
         for (const auto g : {GpuAwareMpiInput::kAuto, GpuAwareMpiInput::kOn, GpuAwareMpiInput::kOff})
           if (mode == gpu_aware_mpi_text(g)) return void(c.gpu_aware_mpi = g);
         s.fail(name, fmt::format("expected {}, got \"{}\"", kExpected, mode));
       }},
      {{"halo.steps_per_exchange", "positive integer or `auto`", D::value("auto"),
        "k: exchange a halo k times deeper every k steps and update the ghost cells redundantly in between "
        "(EuroMPI'15 section 2); step j of a cycle updates the block dilated by the stencil k−j times. `auto`: the "
        "fastest of k = 1, 2, 4, 8 measured on the run's first cycles ([Automatic "
        "choices](#automatic-choices-auto)); `1`: an exchange every step, no deep halo. Halos deeper than the "
        "smallest block use neighbors at distance 2 or more; a halo deeper than the grid in any used dimension is "
        "an error that names the limit (at most n_d / r_d steps for a stencil of reach r_d), checked before "
        "anything is built (`auto` leaves out the k the grid cannot serve); set-up then costs time and memory "
        "linear in the halo cells. Results are bitwise the same for every k.",
        ""},
       always([](const Config& c) {
         return c.steps_per_exchange == kAutoSteps ? YAML::Node("auto") : YAML::Node(c.steps_per_exchange);
       })},
      {{"halo.temporal_blocking", "`auto`, `off` or a mapping", D::value("auto"),
        "temporal blocking: advance the steps of a deep-halo cycle in one pass over memory, each tile's working set "
        "in cache (skewed tiles of `tile_y` rows in y, a wavefront over z inside each tile; "
        "`kernels/include/cartex/kernels/cycle_regions.hpp`). Bitwise the same as the steps one by one. A pass ends "
        "at the cycle's end, at the run's last step and at every step whose state the run reads (progress lines, "
        "field files, checkpoints); a stop check (signal, wall-time limit) waits for the end of the pass, at most "
        "k−1 steps. `auto` blocks where it can win — k ≥ 2, a linear stencil update, the update on the host (on "
        "devices the steps run one launch each) — and measures `tile_y` on the run's first cycles among 8, 16, 32, "
        "… rows per host thread of the rank (the threads split the rows of each tile plane), and the view's rows "
        "(one tile), starting at 32 rows per thread; the rows and threads are the largest of any rank, so every rank "
        "walks the same candidates (on an uneven split a tile taller than a rank's view is one tile there) "
        "([Automatic choices](#automatic-choices-auto)); no cache size decides (a virtual machine may report its "
        "host's). A run too short to measure keeps 32 rows per thread. `--dry-run` prints the tiles, the "
        "redundant-work fraction and the modelled traffic; the summary's `temporal` line the steps per pass, "
        "effective GLUP/s and modelled bytes per cell-update.",
        ""},
       always([](const Config& c) {
         using Mode = TemporalBlockingInput::Mode;
         if (c.temporal_blocking.mode != Mode::kTiles)
           return YAML::Node(c.temporal_blocking.mode == Mode::kOff ? "off" : "auto");
         YAML::Node n(YAML::NodeType::Map);
         n["tile_y"] = c.temporal_blocking.tile_y;
         return n;
       })},
      {{"halo.temporal_blocking.tile_y", "positive integer", D::required(),
        "rows of a tile in y: `halo.temporal_blocking: {tile_y: 32}` blocks with 32-row tiles whatever `auto` would "
        "choose (with a registered point update the steps still run one by one). With a Neumann or `dirichlet: "
        "exact` wall in y the pass fills its ghost rows inside the first or last tile, so on a rank at such a wall "
        "the first tile grows to hold them and their mirror rows after k − 1 skews, and a last tile that starts "
        "above them merges into the one before it ([boundaries.md](boundaries.md#when-ghost-cells-are-computed)).",
        "`halo.temporal_blocking` is a mapping"},
       {}},
      {{"output.dir", "string", D::value("output"),
        "directory for output files. Checked when the input is read (also by `--dry-run`, which creates nothing): no "
        "part of the path may be a file, and the directory (or its nearest existing parent) must be writable, not on "
        "a read-only mount and not on a kernel file system (proc, sysfs, cgroup, devpts, debugfs). A run then "
        "creates it and writes and removes a probe file in it before step 1; a failure there is also a located "
        "error, exit 2",
        ""},
       always([](const Config& c) { return YAML::Node(c.output_dir); }),
       into<std::string>([](Config& c) -> std::string& { return c.output_dir; }, "a directory path",
                         [](const std::string& dir) {
                           return dir.empty() ? std::string("expected a non-empty directory path") : output_dir_problem(dir);
                         })},
      {{"output.history", "bool", D::value("false"),
        "write `dir/history.csv` (columns `step,time,integral,min,max,sine_rel_error`; `integral` is the integral "
        "of u, for heat the total heat) at step 0, every `run.progress_every` steps and at the end; written to "
        "`history.csv.tmp` and renamed when complete",
        ""},
       always([](const Config& c) { return YAML::Node(c.write_history); }),
       into<bool>([](Config& c) -> bool& { return c.write_history; }, "true or false")},
      {{"output.every", "non-negative integer", D::value("0"),
        "write the field file `dir/fields_NNNNNN.h5` (parallel HDF5) at step 0, every N steps and at the last step, "
        "and the XDMF index `dir/fields.xmf`; `0`: no field files. Layout: [output.md](output.md)",
        ""},
       [](const Config& c) -> V { return c.output_every_time > 0 ? std::nullopt : V(YAML::Node(c.output_every)); }},
      {{"output.every_time", "non-negative number", D::value("0"),
        "like `output.every`, but every T of simulated time: at step 0, at the first step whose time reaches each "
        "multiple of T ([output.md](output.md#when-files-are-written)) and at the last step (a T no longer than the "
        "time step: every step); `0`: unused. Not together with `output.every`",
        ""},
       [](const Config& c) -> V { return c.output_every_time > 0 ? V(value_node(c.output_every_time)) : std::nullopt; }},
      {{"output.fields", "non-empty list of the equation's fields, `rank`, field coefficients",
        D::derived("the equation's fields (`[u]`; Gray–Scott `[u, v]`)"),
        "datasets in each field file: the equation's fields by name (float64; `u` the solution), `rank` the owning rank "
        "of each cell (int32), a field coefficient by its key (float64; heat's `alpha` with a field `physics.alpha`)",
        ""},
       always([](const Config& c) {
         YAML::Node n(YAML::NodeType::Sequence);
         for (const auto& f : c.output_fields) n.push_back(f);
         n.SetStyle(YAML::EmitterStyle::Flow);
         return n;
       })},
      {{"output.checkpoint_every", "non-negative integer", D::value("0"),
        "write `dir/checkpoint_NNNNNN.h5` every N steps and at the last step, for `heat3d INPUT --restart FILE`; "
        "`0`: no checkpoints (a run stopped by a signal or the wall-time limit writes one anyway)",
        ""},
       [](const Config& c) -> V {
         return c.checkpoint_every_time > 0 ? std::nullopt : V(YAML::Node(c.checkpoint_every));
       }},
      {{"output.checkpoint_every_time", "non-negative number", D::value("0"),
        "like `output.checkpoint_every`, but every T of simulated time (the first step whose time reaches each "
        "multiple of T, and the last step); `0`: unused. Not together with `output.checkpoint_every`",
        ""},
       [](const Config& c) -> V {
         return c.checkpoint_every_time > 0 ? V(value_node(c.checkpoint_every_time)) : std::nullopt;
       }},
      {{"output.keep_checkpoints", "non-negative integer", D::value("2"),
        "after writing a checkpoint, delete all but the newest N `checkpoint_*.h5` in `dir`; `0`: keep all", ""},
       always([](const Config& c) { return YAML::Node(c.keep_checkpoints); }),
       into<long>([](Config& c) -> long& { return c.keep_checkpoints; }, "a non-negative integer (checkpoints kept, 0 = all)",
                  non_negative)},
  };
  rows.insert(rows.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  return rows;
}

// The row of an equation's physics key.
SchemaRow row_of(const PhysicsKey& k) {
  const std::string name = k.name;
  return {{"physics." + k.name, k.type, k.required() ? D::required() : D::value(k.def), k.meaning, ""},
          always([name](const Config& c) { return physics_node(c, name); })};
}

}  // namespace

std::vector<SchemaRow> schema_rows(const EquationInput& equation) {
  std::vector<SchemaRow> rows;
  bool placed = false;
  for (SchemaRow& r : common_rows()) {
    if (!placed && r.key.path.rfind("physics.", 0) == 0) {
      for (const auto& p : equation.keys) {
        rows.push_back(row_of(p));
        if (p.kind == PhysicsKey::Kind::kCoefficient)
          for (auto& sub : coefficient_input_keys("physics." + p.name)) rows.push_back({std::move(sub), {}});
      }
      placed = true;
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

void read_own_keys(YamlSection& section, Config& cfg) {
  const std::string prefix = section.path() + ".";
  for (const SchemaRow& r : schema_rows(section.equation())) {
    const std::string& path = r.key.path;
    if (!r.read || path.rfind(prefix, 0) != 0 || path.find('.', prefix.size()) != std::string::npos) continue;
    r.read(section, path.substr(prefix.size()), cfg);
  }
}

}  // namespace detail

std::vector<InputKey> common_input_keys() {
  std::vector<InputKey> keys;
  for (auto& r : detail::schema_rows(EquationInput{})) keys.push_back(std::move(r.key));
  return keys;
}

std::vector<InputKey> input_keys(const EquationInput& equation) {
  std::vector<InputKey> keys;
  for (auto& r : detail::schema_rows(equation)) keys.push_back(std::move(r.key));
  return keys;
}

std::optional<InputKey> find_input_key(const std::string& path, const EquationInput& equation) {
  for (auto& k : input_keys(equation))
    if (k.path == path) return std::move(k);
  return std::nullopt;
}

bool is_input_path(const std::string& path, const EquationInput& equation) {
  if (path.empty()) return true;
  for (const auto& k : input_keys(equation))
    if (k.path == path || k.path.rfind(path + ".", 0) == 0) return true;
  return false;
}

std::vector<std::string> input_key_children(const std::string& section, const EquationInput& equation) {
  const std::string prefix = section.empty() ? "" : section + ".";
  std::vector<std::string> names;
  for (const auto& k : input_keys(equation)) {
    if (k.path.size() <= prefix.size() || k.path.rfind(prefix, 0) != 0) continue;
    const std::string rest = k.path.substr(prefix.size());
    names.push_back(rest.substr(0, rest.find('.')));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::string markdown_as_plain_text(const std::string& md) {
  static const std::regex link(R"(\[([^\]]*)\]\([^)]*\))");
  std::string s = std::regex_replace(md, link, "$1");
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  for (std::size_t at = s.find("**"); at != std::string::npos; at = s.find("**", at)) s.erase(at, 2);
  return s;
}

std::string input_keys_help(const EquationInput& equation) {
  std::string text;
  for (const auto& k : input_keys(equation))
    text += fmt::format("{}\n  type: {}\n  default: {}\n  {}{}\n", k.path, markdown_as_plain_text(k.type),
                        markdown_as_plain_text(k.def.shown()), markdown_as_plain_text(k.meaning),
                        k.applies.empty() ? "" : fmt::format(" (used when {})", markdown_as_plain_text(k.applies)));
  return text;
}

std::string input_keys_markdown(const std::vector<InputKey>& keys) {
  const auto shown = [](const KeyDefault& d) {
    switch (d.kind) {
      case KeyDefault::Kind::kValue: return fmt::format("`{}`", d.text);
      case KeyDefault::Kind::kRequired: return d.text.empty() ? std::string("**required**") : fmt::format("**required** ({})", d.text);
      case KeyDefault::Kind::kDerived: return d.text;
      case KeyDefault::Kind::kNone: return std::string("—");
    }
    return std::string("—");
  };
  const auto same_row = [](const InputKey& a, const InputKey& b) {
    return a.type == b.type && a.def.kind == b.def.kind && a.def.text == b.def.text && a.meaning == b.meaning &&
           a.applies == b.applies;
  };
  std::string text = "| key | type | default | meaning |\n|---|---|---|---|\n";
  for (std::size_t q = 0; q < keys.size();) {
    // Consecutive keys alike in all but the path (boundary.x, boundary.y, ...) share one line.
    std::size_t end = q + 1;
    while (end < keys.size() && same_row(keys[q], keys[end])) ++end;
    std::vector<std::string> paths;
    for (std::size_t r = q; r < end; ++r) paths.push_back(fmt::format("`{}`", keys[r].path));
    const InputKey& k = keys[q];
    text += fmt::format("| {} | {} | {} | {}{} |\n", fmt::join(paths, ", "), k.type, shown(k.def), k.meaning,
                        k.applies.empty() ? "" : fmt::format(" (only when {})", k.applies));
    q = end;
  }
  return text;
}

}  // namespace cartex::core
