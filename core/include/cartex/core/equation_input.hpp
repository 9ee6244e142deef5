#pragma once
// What the input loader needs to know of an equation: its name, its physics.* keys as data and its
// stability limit. The equations themselves live in physics/ (cartex/physics/equation.hpp), which
// builds this view of a row; core reads, checks, locates, prints and documents these keys like the
// keys of its own table (input_keys.hpp) without depending on physics/.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cartex/core/stability.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex::core {

// The value of one physics key: its numbers (one for a number, several for a list), or, for a key
// given as a mapping that the equation reads itself, the mapping as flow YAML text.
struct PhysicsValue {
  std::vector<double> numbers;
  std::string mapping;  // non-empty: the key was given as a mapping
};

// physics key name (without "physics.") -> value, for every key of the equation (defaults filled in).
using PhysicsValues = std::map<std::string, PhysicsValue>;

// One physics key of an equation.
struct PhysicsKey {
  // How the loader reads the value: a positive number, a number >= 0, a list of finite numbers, a mapping, or either
  // a positive number or a mapping. A mapping is kept as text for the equation's own `check` (and
  // later reading).
  // kCoefficient: a positive number or a field (layers, gaussian, hdf5; core/coefficient.hpp), read
  // and located key by key by core into Config::coefficients, its value the field's largest.
  enum class Kind { kPositiveNumber, kNonNegativeNumber, kNumberList, kMapping, kPositiveNumberOrMapping, kCoefficient };
  std::string name;      // under physics., e.g. "alpha"
  Kind kind = Kind::kPositiveNumber;
  std::string type;      // what the value is, as --help-input and docs/input.md say it
  std::string def;       // "required", or the default as text
  std::vector<double> default_numbers;  // the default of an optional number or list (def != "required")
  std::string meaning;   // one sentence
  std::string expected;  // the phrase of errors, e.g. "a positive number"
  std::string quantity;  // what the value is physically, e.g. "diffusivity"
  std::size_t list_size = 0;  // kNumberList: entries; 0 = one per dimension of the grid
  // Optional, for any kind: "" when the value read is acceptable, else what is wrong (the loader locates
  // it at the key); the one check of a mapping's content.
  std::function<std::string(const PhysicsValue&, int dim)> check;

  bool required() const { return def == "required"; }
};

// The loader's view of an equation.
struct EquationInput {
  std::string name;                       // "heat", as checkpoints, messages and the resolved config name it
  std::vector<std::string> fields{"u"};   // its state's fields (Config::fields): what output.fields may name
  std::vector<PhysicsKey> keys;           // its physics keys, in the order of docs/input.md
  std::vector<std::string> foreign_keys;  // physics keys that only other equations read (for the message
                                          // "unknown key for the wave equation")
  // The stability limit of its integrator with this stencil (resolved for the grid) and values
  // (core/stability.hpp: dt_max and the mode that sets it, for messages; throws NoStableTimeStep), that
  // limit as a formula for messages ("dt <= 2/(alpha*rho)", used where the spectral radius sets it) and
  // the integrator's name ("explicit Euler", for a limit from the Fourier symbol).
  std::function<TimeStepLimit(const Stencil&, const PhysicsValues&)> dt_max;
  std::string limit_text;
  std::string integrator;
  // The operator the equation steps, built from the input's stencil (resolved for the grid) and its
  // values; empty: the stencil itself. The loader computes dt_max from it and leaves it in
  // Config::stencil (the resolved YAML keeps the input's stencil).
  std::function<Stencil(const Stencil&, const PhysicsValues&, const GlobalGrid&)> operator_stencil;
};

}  // namespace cartex::core
