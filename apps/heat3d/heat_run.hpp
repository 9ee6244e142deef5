#pragma once
// heat3d: the explicit heat equation u' = u + dt*alpha*L(u) on a 2D or 3D grid, wired from the layers:
// Config -> Decomposition -> HaloGeometry + HaloPattern -> HaloPlan + StencilOperator -> time loop
// (an exchange every halo.steps_per_exchange steps) -> summary.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/decomposition.hpp"
#include "cartex/halo/halo_geometry.hpp"
#include "cartex/halo/halo_pattern.hpp"
#include "cartex/io/checkpoint.hpp"

namespace cartex::heat {

// Everything decided before the run: validated config and this rank's place in the decomposition.
struct Setup {
  Config cfg;
  ProcessGrid procs;
  Decomposition decomp{GlobalGrid{}, ProcessGrid{}};
  std::optional<HaloGeometry> geometry;  // where every halo cell comes from (all ranks)
  HaloPattern pattern;                   // this rank's halo blocks and update regions
  std::optional<io::Checkpoint> restart;  // --restart: the checked checkpoint with this rank's block
};

// Reads the input and decides the decomposition; throws InputError (deterministic on every rank).
Setup make_setup(const std::string& input, const std::vector<std::string>& overrides, MPI_Comm comm);

// Checks checkpoint `path` against the set-up and reads this rank's block (no communication);
// throws InputError "--restart PATH: what".
void load_restart(Setup& s, const std::string& path, MPI_Comm comm);

// Prints the resolved configuration, process grid, boxes, halo widths and neighbors (collective).
void print_dry_run(const Setup& s, MPI_Comm comm);

// Runs the time loop and prints progress and the summary (collective); returns the exit code.
int run(const Setup& s, MPI_Comm comm);

}  // namespace cartex::heat
