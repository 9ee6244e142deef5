// The constant Dirichlet wall {dirichlet: v}: on the first ghost cell, every ghost cell holds v,
// filled once per field.
#include "wall_face.hpp"

namespace cartex::core::walls {

namespace {

BoundaryFace read(detail::YamlSection& s, const std::string& key, const YAML::Node& value) {
  BoundaryFace f;
  f.kind = WallKind::kDirichlet;
  f.value = read_number(s, key, dirichlet_row(), value);
  return f;
}

YAML::Node write(const BoundaryFace& f) { return word_node("dirichlet", detail::value_node(f.value)); }

double constant(const BoundaryFace& f) { return f.value; }

// A constant is the sine mode's odd continuation only on the wall itself: 0, and a reach of one cell.
bool continues_sine(const BoundaryFace& f, long reach) { return f.value == 0.0 && reach <= 1; }

const WallKindRow kRow{WallKind::kDirichlet, "dirichlet", false, "number", "a number", "Dirichlet", 1.0, WallFillRule::kConstant,
                       false, false, false, read, nullptr, write, constant, nullptr, continues_sine};

}  // namespace

const WallKindRow& dirichlet_row() { return kRow; }

}  // namespace cartex::core::walls
