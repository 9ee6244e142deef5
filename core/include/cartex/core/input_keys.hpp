#pragma once
// The one table of input keys: every key the loader accepts, with its type, default and meaning;
// the physics keys of an equation come from its row (equation_input.hpp) and join the table there.
// The loader reads only keys of this table and rejects the others from it; `--help-input` prints it;
// docs/input.md lists the same keys (a test compares them).
#include <optional>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"

namespace cartex::core {

// One input key.
struct InputKey {
  std::string path;                  // dotted key path, e.g. "grid.n"
  std::string type;                  // what the value is, e.g. "list of 2 or 3 positive integers"
  std::string def;                   // the default ("required", "-" when there is none)
  std::string meaning;               // one sentence
  std::string applies;               // when the key is used, e.g. "init.type is gaussian"; empty: always
};

// The keys every equation has, in the order of docs/input.md (the physics keys of an equation go
// before physics.dt).
const std::vector<InputKey>& common_input_keys();

// Every key of `equation`, in the order of docs/input.md.
std::vector<InputKey> input_keys(const EquationInput& equation);

// The row of `path` for `equation`, or nothing when the key does not exist for it.
std::optional<InputKey> find_input_key(const std::string& path, const EquationInput& equation);

// Whether `path` is a key or a section ("grid", "" for the top level) for `equation`.
bool is_input_path(const std::string& path, const EquationInput& equation);

// The names directly under `section` ("" for the top level) for `equation`, sorted.
std::vector<std::string> input_key_children(const std::string& section, const EquationInput& equation);

// The text of `--help-input`: one block per key of `equation` (path, type, default, meaning).
std::string input_keys_help(const EquationInput& equation);

}  // namespace cartex::core
