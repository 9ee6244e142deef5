#pragma once
// Named stencils from downstream code. A program registers a factory before it loads its input; then
// `stencil: NAME` in the YAML input builds the stencil for the run's grid:
//
//   cartex::core::Stencil cross(const cartex::core::GlobalGrid& g) { ... offsets and weights for g ... }
//   int main(int argc, char** argv) {
//     cartex::core::register_stencil("cross", cross, "my cross-shaped Laplacian");
//     ...  // then load_config / app_main
//   }
//
// Names resolve to a builtin for the grid's dimension first, then to the registry. The factory's
// result is checked like a custom stencil from the input (validate_stencil) and takes the registered
// name. Not thread-safe by design: the registry is a plain process-wide table, meant to be filled
// once at start-up from one thread before any configuration is loaded. docs/stencils.md has more.
#include <functional>
#include <string>
#include <vector>

#include "cartex/core/grid.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex::core {

// Builds a stencil for a grid; throws (any std::exception, with the reason) when it cannot, e.g. for
// a dimension it does not support.
using StencilFactory = std::function<Stencil(const GlobalGrid&)>;

// One registered stencil, for listings (e.g. a --help text).
struct RegisteredStencil {
  std::string name;
  std::string description;
};

// Registers `make` under `name`. Throws std::invalid_argument if the name is empty, reserved (a name
// the input can give without the registry: reserved_stencil_names()) or already registered, or if
// `make` is empty.
void register_stencil(std::string name, StencilFactory make, std::string description);

// Every registered stencil, sorted by name.
std::vector<RegisteredStencil> registered_stencils();

// True if `name` is registered.
bool is_registered_stencil(const std::string& name);

// The builtin `name` for the grid's dimension, else the registered one, validated. Throws
// InvalidStencil when the factory's stencil is not valid, std::invalid_argument for an unknown name
// (listing the builtins and registered names) or when the builtin or the factory cannot build it
// for `grid` (with the reason).
Stencil make_named_stencil(const std::string& name, const GlobalGrid& grid);

}  // namespace cartex::core
