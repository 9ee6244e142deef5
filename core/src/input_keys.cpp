#include "cartex/core/input_keys.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "coefficient_input.hpp"
#include "walls/wall_face.hpp"

namespace cartex::core {

namespace {

const char* const kFamily = "the stencil is a family (stencil.type star or box)";
const char* const kCustom = "the stencil is custom (stencil.offsets and stencil.weights)";
const char* const kLowWall = "the low wall in ";
const char* const kLowWallMeaning =
    ": Dirichlet value (exact: the exact solution), Neumann outward normal derivative (0 = insulated), or Robin "
    "a u + b du/dn = g (docs/boundaries.md)";

// The table row of an equation's physics key.
InputKey input_key_of(const PhysicsKey& k) { return {"physics." + k.name, k.type, k.def, k.meaning, ""}; }

}  // namespace

const std::vector<InputKey>& common_input_keys() {
  static const std::vector<InputKey> keys = {
      {"grid.n", "list of 2 or 3 positive integers", "required",
       "cells per dimension (each at most 2^30, at most 2^50 in all); two entries make a 2D run", ""},
      {"grid.length", "number or list of positive numbers", "1.0", "physical length per dimension", ""},
      {"grid.periodic", "bool or list of bools", "true",
       "periodic dimensions; the others have walls (boundary, Dirichlet 0 unless given)", ""},
      {"processes.dims", "non-negative integer or list", "all 0",
       "processes per dimension; 0 entries are chosen by MPI_Dims_create", ""},
      {"processes.reorder", "bool", "false", "give every node a compact sub-block of the process grid", ""},
      {"physics.dt", "positive number", "-", "time step, at most the stability limit (give dt or cfl)", ""},
      {"physics.cfl", "number in (0, 1]", "-", "time step as a fraction of the stability limit (give dt or cfl)", ""},
      {"stencil", "string or mapping", "7pt in 3D, 5pt in 2D",
       "the operator L: a builtin or registered Laplacian, or a mapping (a family, or offsets and weights)", ""},
      {"stencil.type", "star or box", "-", "the stencil family", kFamily},
      {"stencil.order", "2, 4, 6 or 8", "star: -; box: 2", "star: order of accuracy p; box: only 2", kFamily},
      {"stencil.radius", "1 to 4", "star: -; box: 1", "star: reach along each axis, p/2; box: only 1", kFamily},
      {"stencil.offsets", "list of [dx, dy] or [dx, dy, dz] integers", "required (custom)",
       "the points relative to the cell, each once", kCustom},
      {"stencil.weights", "list of numbers", "required (custom)",
       "one finite weight per offset, for unit spacing (see stencil.derivative); any sum: a non-zero sum is a reaction term",
       kCustom},
      {"stencil.derivative", "0, 1 or 2", "2",
       "the derivative the weights approximate: they are divided by h^derivative (h: the equal spacing of the dimensions "
       "the stencil reaches); 0: used as given",
       kCustom},
      {"stencil.divide_by_h2", "-", "-",
       "replaced by stencil.derivative: an error that names the new spelling (true is derivative: 2, false is derivative: 0)",
       kCustom},
      {"stencil.name", "string", "custom", "the custom stencil's name in the summary and files", kCustom},
      {"boundary.x", "list [low, high] of numbers, periodic, or a mapping {low, high}", "[0, 0] (periodic when grid.periodic)",
       "the walls in x: Dirichlet values [low, high], or each face on its own (must agree with grid.periodic)", ""},
      {"boundary.x.low", wall_face_input_type(), "{dirichlet: 0}",
       kLowWall + std::string("x") + kLowWallMeaning,
       "boundary.x is a mapping"},
      {"boundary.x.high", wall_face_input_type(), "{dirichlet: 0}",
       "the high wall in x, as boundary.x.low", "boundary.x is a mapping"},
      {"boundary.y", "list [low, high] of numbers, periodic, or a mapping {low, high}", "[0, 0] (periodic when grid.periodic)",
       "the walls in y: Dirichlet values [low, high], or each face on its own (must agree with grid.periodic)", ""},
      {"boundary.y.low", wall_face_input_type(), "{dirichlet: 0}",
       kLowWall + std::string("y") + kLowWallMeaning,
       "boundary.y is a mapping"},
      {"boundary.y.high", wall_face_input_type(), "{dirichlet: 0}",
       "the high wall in y, as boundary.y.low", "boundary.y is a mapping"},
      {"boundary.z", "list [low, high] of numbers, periodic, or a mapping {low, high}", "[0, 0] (periodic when grid.periodic)",
       "the walls in z: Dirichlet values [low, high], or each face on its own (must agree with grid.periodic)", ""},
      {"boundary.z.low", wall_face_input_type(), "{dirichlet: 0}",
       kLowWall + std::string("z") + kLowWallMeaning,
       "boundary.z is a mapping"},
      {"boundary.z.high", wall_face_input_type(), "{dirichlet: 0}",
       "the high wall in z, as boundary.z.low", "boundary.z is a mapping"},
      {"init.type", "sine or gaussian", "sine", "initial condition", ""},
      {"init.amplitude", "number", "1.0", "amplitude A", ""},
      {"init.modes", "positive integer or list", "1", "sine: mode number per dimension", "init.type is sine"},
      {"init.center", "number or list", "the domain centre", "gaussian: centre (physical coordinates)",
       "init.type is gaussian"},
      {"init.width", "positive number", "0.1", "gaussian: standard deviation (physical units)", "init.type is gaussian"},
      {"run.steps", "non-negative integer", "100", "time steps (at most 10^15); not together with run.end_time", ""},
      {"run.end_time", "positive number", "-",
       "stop at this simulated time: ceil(end_time / dt) steps of a uniform dt that lands on it", ""},
      {"run.wall_time_limit", "non-negative number", "0",
       "seconds the run may take; near it a checkpoint is written and the run stops; 0: no limit", ""},
      {"run.wall_time_margin", "non-negative number", "0", "seconds kept in reserve below run.wall_time_limit", ""},
      {"run.stopped_exit_code", "0 or integer 3..125", "75",
       "exit code of a run stopped early with a checkpoint (signal, wall-time limit); 0: as a finished run", ""},
      {"run.progress_every", "non-negative integer", "0", "rank 0 prints a progress record every N steps; 0: none", ""},
      {"comm.backend", "string", "p2p", "halo exchange backend (docs/backends.md); auto: the fastest at start-up", ""},
      {"comm.allreduce", "mpi, ring or ring_renamed", "mpi", "allreduce of the global diagnostics", ""},
      {"comm.overlap", "true, false or auto", "auto",
       "hide the halo exchange behind the interior update; auto: measured during the run, on where it pays", ""},
      {"comm.gpu_aware_mpi", "auto, on or off", "auto",
       "whether MPI may read device memory (docs/backends.md, Device memory); auto: asks the MPI library", ""},
      {"halo.steps_per_exchange", "positive integer or auto", "auto",
       "k: exchange a k times deeper halo every k steps; auto: the fastest of 1, 2, 4, 8, measured during the run", ""},
      {"halo.temporal_blocking", "auto, off or mapping", "auto",
       "advance the steps of a deep-halo cycle in one pass over memory (skewed tiles in y, wavefront over z)", ""},
      {"halo.temporal_blocking.tile_y", "positive integer", "required (mapping)", "rows of a tile in y",
       "halo.temporal_blocking is a mapping"},
      {"output.dir", "string", "output", "directory for output files (checked at start: creatable and writable)", ""},
      {"output.history", "bool", "false", "write dir/history.csv", ""},
      {"output.every", "non-negative integer", "0", "steps between field files dir/fields_NNNNNN.h5; 0: none", ""},
      {"output.every_time", "non-negative number", "0", "simulated time between field files (instead of output.every); 0: none",
       ""},
      {"output.fields", "non-empty list of u, rank, alpha", "[u]", "datasets in each field file (alpha: a field physics.alpha)", ""},
      {"output.checkpoint_every", "non-negative integer", "0", "steps between checkpoints dir/checkpoint_NNNNNN.h5; 0: none",
       ""},
      {"output.checkpoint_every_time", "non-negative number", "0",
       "simulated time between checkpoints (instead of output.checkpoint_every); 0: none", ""},
      {"output.keep_checkpoints", "non-negative integer", "2", "newest checkpoints kept in dir; 0: all", ""},
  };
  return keys;
}

std::vector<InputKey> input_keys(const EquationInput& equation) {
  const std::vector<InputKey>& common = common_input_keys();
  std::vector<InputKey> keys;
  bool placed = false;
  for (const auto& k : common) {
    if (!placed && k.path.rfind("physics.", 0) == 0) {
      for (const auto& p : equation.keys) {
        keys.push_back(input_key_of(p));
        if (p.kind == PhysicsKey::Kind::kCoefficient)
          for (auto& sub : detail::coefficient_input_keys("physics." + p.name)) keys.push_back(std::move(sub));
      }
      placed = true;
    }
    keys.push_back(k);
  }
  return keys;
}

std::optional<InputKey> find_input_key(const std::string& path, const EquationInput& equation) {
  for (const auto& k : input_keys(equation))
    if (k.path == path) return k;
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

std::string input_keys_help(const EquationInput& equation) {
  std::string text;
  for (const auto& k : input_keys(equation))
    text += fmt::format("{}\n  type: {}\n  default: {}\n  {}{}\n", k.path, k.type, k.def, k.meaning,
                        k.applies.empty() ? "" : fmt::format(" (used when {})", k.applies));
  return text;
}

}  // namespace cartex::core
