#pragma once
// Internal: the rows of the input schema (cartex/core/input_keys.hpp) with what the public InputKey
// leaves out: how each key's value is written back into the resolved YAML.
#include <yaml-cpp/yaml.h>

#include <functional>
#include <optional>
#include <vector>

#include "cartex/core/input_keys.hpp"

namespace cartex::core::detail {

// A key's value in the resolved YAML of a run, or nothing when the run leaves it out (a key of an
// alternative the input did not take, e.g. init.modes of a gaussian).
using ResolvedValue = std::function<std::optional<YAML::Node>(const Config&)>;

class YamlSection;

// How the loader reads a key whose value is checked on its own (not against other keys) into the
// Config: `section` holds it under `name`; a bad value fails there, located.
using ReadValue = std::function<void(YamlSection& section, const std::string& name, Config& cfg)>;

// A key of the input: what it is (the public row), how it is read and how it is written back. A key
// with `read` is wholly this row (plus its Config member); a key without one is read by its section's
// reader in config.cpp, with the keys it depends on.
struct SchemaRow {
  InputKey key;
  ResolvedValue resolved = {};  // empty: the key's section row writes it (boundary.x.low), or no run writes it
  ReadValue read = {};
};

// Every row of `equation`'s schema, in the order of docs/input.md.
std::vector<SchemaRow> schema_rows(const EquationInput& equation);

// Reads every key with a `read` directly in `section` (not in its sub-sections), in the schema's order.
void read_own_keys(YamlSection& section, Config& cfg);

}  // namespace cartex::core::detail
