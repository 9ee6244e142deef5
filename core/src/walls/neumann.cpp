// The Neumann wall {neumann: q} (q the outward normal derivative, 0 = insulated): half a cell outside,
// ghost layer m is its mirror cell m plus (2m + 1) h q, refreshed after every step. Its ghost rule is
// the Robin one with a = 0, b = 1, g = q, which gives exactly those bits (kernels::WallFill::cell).
#include "wall_face.hpp"

namespace cartex::core::walls {

namespace {

BoundaryFace read(detail::YamlSection& s, const std::string& key, const YAML::Node& value) {
  BoundaryFace f;
  f.kind = WallKind::kNeumann;
  f.value = read_number(s, key, neumann_row(), value);
  return f;
}

YAML::Node write(const BoundaryFace& f) { return word_node("neumann", detail::value_node(f.value)); }

RobinCoefficients mirror(const BoundaryFace& f) { return {0.0, 1.0, f.value}; }

// An insulated wall's ghosts are the even mirror: the cosine mode's continuation at any reach.
bool continues_sine(const BoundaryFace& f, long) { return f.value == 0.0; }

const WallKindRow kRow{WallKind::kNeumann, "neumann", false, "number",
                       "a number (the outward normal derivative, 0 = insulated)", "Neumann", 0.5, WallFillRule::kMirror, false,
                       true, true, read, nullptr, write, nullptr, mirror, continues_sine};

}  // namespace

const WallKindRow& neumann_row() { return kRow; }

}  // namespace cartex::core::walls
