#pragma once
// Internal: a face of boundary.<d> in the input and in the resolved YAML, read and written by the
// rows of core/wall_kinds.hpp (one file per kind here, the table in rows.cpp).
#include <yaml-cpp/yaml.h>

#include <string>

#include "../resolved_yaml.hpp"
#include "../yaml_reader.hpp"
#include "cartex/core/config.hpp"
#include "cartex/core/wall_kinds.hpp"

namespace cartex::core {

// One face of a boundary.<d> mapping (boundary.x.low ...) as one of the rows spells it; absent or
// null: `def`. Any other value is one located error at `key`.
BoundaryFace read_wall_face(detail::YamlSection& s, const std::string& key, BoundaryFace def);

// The face as the resolved YAML writes it ({dirichlet: 0.5}, {robin: {a: 1, b: 0.5, g: 0}}, periodic):
// it reloads to the same bits.
YAML::Node wall_face_node(const BoundaryFace& f);

// The face's type for the input key table, from the rows: "{dirichlet: number or exact}, ...".
std::string wall_face_input_type();

// What a face may be, for messages: "{dirichlet: a number or exact}, {neumann: a number (...)}, ...".
std::string wall_face_expected();

namespace walls {

// The rows, one file each.
const WallKindRow& periodic_row();
const WallKindRow& dirichlet_row();
const WallKindRow& dirichlet_exact_row();
const WallKindRow& neumann_row();
const WallKindRow& robin_row();

// Helper of the rows: {word: value} in flow style (numbers as detail::value_node writes them).
YAML::Node word_node(const char* word, const YAML::Node& value);
// The finite number `value` of a face spelled {word: value}, or one located error at `key`.
double read_number(detail::YamlSection& s, const std::string& key, const WallKindRow& row, const YAML::Node& value);

}  // namespace walls

}  // namespace cartex::core
