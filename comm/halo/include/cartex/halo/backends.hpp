#pragma once
// The registry of halo backends: the one list of backends (comm.backend), one row each. Input
// validation, --list-backends, --dry-run, halobench and the tests all read it.
//
// Adding a backend: one source file in comm/halo/src/backends/ defining its make (and predict)
// function, one row in src/backends.cpp (with the two declarations above the table), one line in
// comm/halo/CMakeLists.txt, one row in docs/backends.md. Its row says whether it hands MPI the field
// (zero-copy: make_halo_plan refuses it where comm.gpu_aware_mpi says MPI cannot take the field's
// memory) or packs (its StagedBuffers built with staging_of(inputs.memory()): direct or staged).
#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cartex/halo/geometry.hpp"
#include "cartex/halo/gpu_aware_mpi.hpp"
#include "cartex/halo/pattern.hpp"
#include "cartex/halo/plan.hpp"

namespace cartex::halo {

// What a backend is built from. `geometry` (all ranks' halos) is needed only by the backends that
// route through other processes (the Cartesian ones, forwarding) and by auto; `gpu_aware_mpi` decides
// where MPI reads and writes (gpu_aware_mpi.hpp): packed backends build their buffers for it.
struct PlanInputs {
  const HaloPattern& pattern;
  MPI_Comm comm;
  const HaloGeometry* geometry = nullptr;
  core::GpuAwareMpiInput gpu_aware_mpi = core::GpuAwareMpiInput::kAuto;
  // Fields every exchange moves together (HaloPlan::start(FieldSet)); at least 1.
  int fields = 1;

  // The geometry; throws std::invalid_argument naming `backend` when none was given.
  const HaloGeometry& need_geometry(const char* backend) const;
  // The decision of gpu_aware_mpi for this build and MPI (mpi_memory).
  MpiMemory memory() const { return mpi_memory(gpu_aware_mpi); }
};

// One row of the registry.
struct Backend {
  const char* name;         // comm.backend
  const char* description;  // one line for --list-backends
  bool zero_copy;           // hands the field's own memory to MPI (MpiMemory::zero_copy must allow it), else
                            // packs into buffers (staged or direct as MpiMemory::stage says)
  bool overlaps;            // start returns before the exchange is done (plan.hpp says how much)
  int buffers;              // halo-sized buffers the plan holds (send + receive, padding, scratch)
  bool per_dimension;       // ... times the dimension (blocks pass through up to dim rounds)
  // Builds the plan (collective over inputs.comm).
  std::unique_ptr<HaloPlan> (*make)(const PlanInputs& inputs);
  // The plan's stats without building it or communicating; nullopt when that needs the plan.
  std::optional<HaloStats> (*predict)(const PlanInputs& inputs);
  // nullptr when this build can run the backend, otherwise why not (the MPI lacks a function it
  // needs): such a row is listed but refused like an unknown name, and auto and halobench skip it.
  const char* unavailable = nullptr;
};

// Every backend, in the order auto tries them (auto last).
const std::vector<Backend>& backends();

// The row of `name`, or nullptr.
const Backend* find_backend(const std::string& name);

// The backend names, comma-separated, for error messages.
std::string backend_names();

// The registry as text, one backend a line: name, zero-copy or packed, overlaps or blocking,
// description, after one '#' header line (what the apps' --list-backends print); an unavailable
// backend's line is its name, "unavailable:" and the reason.
std::string backends_table();

// Why `b` cannot run under `memory`: its unavailable reason, or the refusal of a zero-copy backend;
// nullopt when it can.
std::optional<std::string> refusal(const Backend& b, const MpiMemory& memory);

// True if `b` can run in this build with this MPI library under `setting`: no refusal with
// mpi_memory(setting). The tests that loop over every backend skip the others (on a device without a
// GPU-aware MPI: the zero-copy ones). Asks MPI (initialised) once per process.
bool runs_here(const Backend& b, core::GpuAwareMpiInput setting = core::GpuAwareMpiInput::kAuto);

// Builds the plan of backend `name` (collective); throws std::invalid_argument for an unknown name,
// fields < 1, an unavailable backend, a zero-copy backend that inputs.memory() refuses, or a backend needing a
// geometry given none.
std::unique_ptr<HaloPlan> make_halo_plan(const std::string& name, const PlanInputs& inputs);

}  // namespace cartex::halo
