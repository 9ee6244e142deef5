// halobench command line.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "benchstats/timing.hpp"
#include "cartex/core/config.hpp"

namespace halobench {

// Everything the command line sets.
struct Options {
  std::vector<std::string> stencils = {"27pt"};  // builtin names, or star:R / box:R
  int dim = 3;                                    // dimension of star:R / box:R
  std::vector<long> blocks = {8};                 // local block edge: every rank owns block^dim cells
  int k = 1;                                      // steps per exchange (halo depth k * reach)
  bool mesh = false;                              // non-periodic in every dimension
  std::array<int, 3> dims{0, 0, 0};               // process grid, 0 = chosen like MPI_Dims_create
  std::vector<std::string> backends;              // empty: every backend (auto last)
  std::vector<int> fields;                        // --fields: N fields together vs one by one (empty: off)
  benchstats::Method method{10, 30, 5, 3.0, 1};
  bool list_backends = false;                    // --list-backends: print the halo registry and exit
  cartex::core::GpuAwareMpiInput gpu_aware_mpi = cartex::core::GpuAwareMpiInput::kAuto;  // as comm.gpu_aware_mpi
  std::string csv;
  std::string label;  // free text copied into the CSV (machine, run id)
};

// Parses argv into `o`; returns -1 to go on, or the exit code for every rank (0 after --help, 2 for a
// bad option: benchstats/command_line.hpp).
int parse_options(int argc, char** argv, Options& o);

}  // namespace halobench
