#pragma once
// Internal: the resolved configuration written back as YAML (Config::resolved_yaml, --dry-run,
// checkpoints), every default filled in, so that it loads again to the same Config. Each key's row of
// the input schema (input_schema.hpp) says how its value is written; the helpers below build the
// values that are more than one scalar.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <type_traits>

#include "cartex/core/config.hpp"

namespace cartex::core::detail {

// `c` as an input for `equation`: every key that applies, in the schema's order, doubles in the
// fewest digits that read back to the same bits.
std::string emit_resolved(const Config& c, const EquationInput& equation);

// A value for the resolved YAML; a double in the fewest digits that read back to the same bits.
template <class T>
YAML::Node value_node(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return YAML::Node(fmt::format("{}", v));
  else
    return YAML::Node(v);
}

// The first `dim` entries of a per-dimension array as a flow list.
template <class A>
YAML::Node dims_node(const A& a, int dim) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (int d = 0; d < dim; ++d) n.push_back(value_node(a[d]));
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

// The stencil as the input spelled it, with weights to the last bit, so it reloads to the same Stencil.
YAML::Node stencil_node(const Config& c);

// Physics key `name` of the run: a field coefficient's form, or its number, list or mapping.
YAML::Node physics_node(const Config& c, const std::string& name);

// The walls of dimension d, or nothing for a periodic one (grid.periodic says it).
std::optional<YAML::Node> boundary_node(const Config& c, int d);

}  // namespace cartex::core::detail
