#pragma once
// The whole program of a cartex stencil app (heat3d, wave3d, or a user's own executable that
// registers stencils or point updates first, see docs/stencils.md):
//
//   APP INPUT.yaml [--set key.path=value ...] [--dry-run] [--restart CHECKPOINT]
//
// Config -> Decomposition -> HaloGeometry + HaloPattern -> Placement -> HaloPlan + UpdateOperator
// -> time loop (an exchange every halo.steps_per_exchange steps) -> output, summary.
#include "cartex/physics/equation.hpp"

namespace cartex::app {

// Runs the app `name` for `equation` (a row of physics' registry) with MPI and Kokkos already initialized by the caller (so a
// user's main can register first); every rank returns the same exit code: 0, 1 (run failed), 2 (bad
// input or command line) or run.stopped_exit_code (75: stopped early with a checkpoint, docs/output.md).
int run_app(const char* name, const physics::Equation& equation, int argc, char** argv);

// MPI_Init, Kokkos, run_app, finalize: a complete main().
int app_main(const char* name, const physics::Equation& equation, int argc, char** argv);

}  // namespace cartex::app
