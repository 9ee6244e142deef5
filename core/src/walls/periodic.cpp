// The periodic face: the halo exchange fills its ghost cells (both faces of a dimension, as
// grid.periodic says).
#include "wall_face.hpp"

namespace cartex::core::walls {

namespace {

BoundaryFace read(detail::YamlSection&, const std::string&, const YAML::Node&) {
  BoundaryFace f;
  f.kind = WallKind::kPeriodic;
  return f;
}

YAML::Node write(const BoundaryFace&) { return YAML::Node("periodic"); }

bool continues_sine(const BoundaryFace&, long) { return true; }

const WallKindRow kRow{WallKind::kPeriodic, "periodic", true, "", "", "periodic", 0.0, WallFillRule::kNone, false, false, false,
                       read, nullptr, write, nullptr, nullptr, continues_sine};

}  // namespace

const WallKindRow& periodic_row() { return kRow; }

}  // namespace cartex::core::walls
