// The Dirichlet wall {dirichlet: exact}: on the first ghost cell, every ghost cell holds the
// equation's exact solution at its position and the state's time, refreshed after every step.
#include "wall_face.hpp"

namespace cartex::core::walls {

namespace {

BoundaryFace read(detail::YamlSection&, const std::string&, const YAML::Node&) {
  BoundaryFace f;
  f.kind = WallKind::kDirichletExact;
  return f;
}

bool claims(const YAML::Node& value) { return value.IsScalar() && value.Scalar() == "exact"; }

YAML::Node write(const BoundaryFace&) { return word_node("dirichlet", YAML::Node("exact")); }

bool continues_sine(const BoundaryFace&, long) { return true; }

const WallKindRow kRow{WallKind::kDirichletExact, "dirichlet", false, "exact", "exact", "Dirichlet exact", 1.0, WallFillRule::kExact,
                       true, false, false, read, claims, write, nullptr, nullptr, continues_sine};

}  // namespace

const WallKindRow& dirichlet_exact_row() { return kRow; }

}  // namespace cartex::core::walls
