#pragma once
// Internal: the layers of an input (files, --unset, --set) read, checked and merged into one YAML tree.
#include "cartex/core/config.hpp"
#include "yaml_reader.hpp"

namespace cartex::core::detail {

// Loads the layers of `in` for `equation` (files merged left to right, then --unset, then --set;
// values parsed as YAML), rejects unknown keys and returns the root section.
YamlSection load_yaml(const InputSources& in, const EquationInput& equation);

}  // namespace cartex::core::detail
