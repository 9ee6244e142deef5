// The Robin wall {robin: {a: a, b: b, g: g}}: a u + b du/dn = g (n the outward normal), half a cell
// outside like a Neumann wall. Ghost layer m and its mirror cell m lie at distance d = (2m + 1) h
// across the wall, and a (u_g + u_m) / 2 + b (u_g - u_m) / d = g decides the ghost, refreshed after
// every step (kernels::WallFill::cell). a, b >= 0 and a + b > 0 (well posed, a non-zero denominator);
// a = 0 is a Neumann wall with q = g / b (b = 1: Neumann's bits), b = 0 a Dirichlet wall u = g / a
// placed half a cell outside (the ghost is 2 g / a - u_m).
#include <fmt/format.h>

#include <cmath>
#include <set>

#include "wall_face.hpp"

namespace cartex::core::walls {

namespace {

const char* const kValue = "{a: a number >= 0, b: a number >= 0, g: a number} (a u + b du/dn = g, a + b > 0)";

BoundaryFace read(detail::YamlSection& s, const std::string& key, const YAML::Node& value) {
  if (!value.IsMap())
    s.fail(key, fmt::format("expected robin: {}, got {}", kValue, value.IsScalar() ? value.Scalar() : std::string("a list")));
  const std::set<std::string> names{"a", "b", "g"};
  for (const auto& kv : value) {
    const std::string name = kv.first.Scalar();
    if (!names.count(name)) s.fail(key, fmt::format("robin: unknown key \"{}\" (expected a, b and g)", name));
  }
  BoundaryFace f;
  f.kind = WallKind::kRobin;
  double* const coefficient[3] = {&f.robin.a, &f.robin.b, &f.robin.g};
  for (int c = 0; c < 3; ++c) {
    const std::string name(1, "abg"[c]);
    const YAML::Node v = value[name];
    if (!v) s.fail(key, fmt::format("robin: missing key {} (expected {})", name, kValue));
    if (!detail::decode(v, *coefficient[c]))
      s.fail(key, fmt::format("robin: expected a finite number for {}, got {}", name,
                              v.IsScalar() ? v.Scalar() : std::string("a list or mapping")));
  }
  if (!(f.robin.a >= 0 && f.robin.b >= 0) || f.robin.a + f.robin.b == 0)
    s.fail(key, fmt::format("robin: a and b must be >= 0 and not both 0 (a u + b du/dn = g is then well posed), got a = {}, b = {}",
                            f.robin.a, f.robin.b));
  return f;
}

YAML::Node write(const BoundaryFace& f) {
  YAML::Node c(YAML::NodeType::Map);
  c["a"] = detail::value_node(f.robin.a);
  c["b"] = detail::value_node(f.robin.b);
  c["g"] = detail::value_node(f.robin.g);
  c.SetStyle(YAML::EmitterStyle::Flow);
  return word_node("robin", c);
}

RobinCoefficients mirror(const BoundaryFace& f) { return f.robin; }

// Its ghosts continue no sine mode (a = 0 = g is an insulated wall, but the mode is the Dirichlet one).
bool continues_sine(const BoundaryFace&, long) { return false; }

const WallKindRow kRow{WallKind::kRobin, "robin", false, "{a, b, g}", kValue, "Robin", 0.5, WallFillRule::kMirror, false, true,
                       false, read, nullptr, write, nullptr, mirror, continues_sine};

}  // namespace

const WallKindRow& robin_row() { return kRow; }

}  // namespace cartex::core::walls
