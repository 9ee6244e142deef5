#pragma once
// The one table of input keys: every key the loader accepts, with its type, default and meaning.
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
  std::optional<Equation> equation;  // the only equation that reads the key; empty: both
};

// Every key, in the order of docs/input.md.
const std::vector<InputKey>& input_keys();

// The row of `path` for `equation`, or nullptr when the key does not exist for it.
const InputKey* find_input_key(const std::string& path, Equation equation);

// Whether `path` is a key or a section ("grid", "" for the top level) for `equation`.
bool is_input_path(const std::string& path, Equation equation);

// The names directly under `section` ("" for the top level) for `equation`, sorted.
std::vector<std::string> input_key_children(const std::string& section, Equation equation);

// The text of `--help-input`: one block per key of `equation` (path, type, default, meaning).
std::string input_keys_help(Equation equation);

}  // namespace cartex::core
