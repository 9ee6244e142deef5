#include "resolved_yaml.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "input_schema.hpp"
#include "walls/wall_face.hpp"

namespace cartex::core::detail {

namespace {

const char* const kAxis[3] = {"x", "y", "z"};

}  // namespace

YAML::Node stencil_node(const Config& c) {
  const StencilInput& in = c.stencil_input;
  if (in.form == StencilInput::Form::kName) return YAML::Node(c.stencil.name);
  YAML::Node n(YAML::NodeType::Map);
  if (in.form == StencilInput::Form::kStar) {
    n["type"] = "star";
    n["order"] = in.order;
    return n;
  }
  n["name"] = c.stencil.name;
  YAML::Node offsets(YAML::NodeType::Sequence);
  for (const auto& o : c.stencil.offsets) {
    YAML::Node e(YAML::NodeType::Sequence);
    for (int d = 0; d < c.grid.dim; ++d) e.push_back(o[d]);
    e.SetStyle(YAML::EmitterStyle::Flow);
    offsets.push_back(e);
  }
  n["offsets"] = offsets;
  YAML::Node weights(YAML::NodeType::Sequence);
  for (double w : in.weights) weights.push_back(value_node(w));
  weights.SetStyle(YAML::EmitterStyle::Flow);
  n["weights"] = weights;
  n["derivative"] = in.derivative;
  return n;
}

namespace {

// A field coefficient as the input gave it: its form with every value to the last bit.
YAML::Node coefficient_node(const Config& c, const CoefficientInput& a) {
  auto numbers = [](const auto& v, size_t n) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (size_t q = 0; q < n; ++q) seq.push_back(value_node(v[q]));
    seq.SetStyle(YAML::EmitterStyle::Flow);
    return seq;
  };
  YAML::Node n(YAML::NodeType::Map);
  YAML::Node f(YAML::NodeType::Map);
  if (a.form == CoefficientInput::Form::kLayers) {
    f["axis"] = kAxis[a.axis];
    f["bounds"] = numbers(a.bounds, a.bounds.size());
    f["values"] = numbers(a.values, a.values.size());
  } else if (a.form == CoefficientInput::Form::kGaussian) {
    f["background"] = value_node(a.background);
    f["peak"] = value_node(a.peak);
    f["center"] = numbers(a.center, static_cast<size_t>(c.grid.dim));
    f["width"] = value_node(a.width);
  } else {
    f["file"] = a.file;
    f["dataset"] = a.dataset;
  }
  n[coefficient_form_name(a.form)] = f;
  return n;
}

// A physics key's value: its number, its list of numbers, or its mapping.
YAML::Node physics_value_node(const PhysicsValue& v) {
  if (!v.mapping.empty()) return YAML::Load(v.mapping);
  if (v.numbers.size() == 1) return value_node(v.numbers.front());
  YAML::Node n(YAML::NodeType::Sequence);
  for (const double x : v.numbers) n.push_back(value_node(x));
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

}  // namespace

YAML::Node physics_node(const Config& c, const std::string& name) {
  if (const CoefficientInput* field = field_coefficient(c, name)) return coefficient_node(c, *field);
  return physics_value_node(c.physics.at(name));
}

std::optional<YAML::Node> boundary_node(const Config& c, int d) {
  if (c.grid.periodic[d] || d >= c.grid.dim) return std::nullopt;
  // Two constant Dirichlet walls: the [low, high] shorthand; otherwise each face as its row writes it.
  const auto constant = [](const BoundaryFace& f) { return f.kind == WallKind::kDirichlet; };
  YAML::Node v(constant(c.boundary[d][0]) && constant(c.boundary[d][1]) ? YAML::NodeType::Sequence : YAML::NodeType::Map);
  for (int side = 0; side < 2; ++side) {
    const BoundaryFace& f = c.boundary[d][side];
    if (v.IsSequence())
      v.push_back(value_node(f.value));
    else
      v[side == 0 ? "low" : "high"] = wall_face_node(f);
  }
  v.SetStyle(YAML::EmitterStyle::Flow);
  return v;
}

std::string emit_resolved(const Config& c, const EquationInput& equation) {
  YAML::Node root(YAML::NodeType::Map);
  for (const SchemaRow& row : schema_rows(equation)) {
    if (!row.resolved) continue;
    const std::optional<YAML::Node> v = row.resolved(c);
    if (!v) continue;
    // Walk to the key's parent mapping (created in the schema's order), then set the key.
    const std::string& path = row.key.path;
    YAML::Node at = root;
    std::size_t begin = 0;
    for (std::size_t dot = path.find('.'); dot != std::string::npos; begin = dot + 1, dot = path.find('.', begin)) {
      const std::string part = path.substr(begin, dot - begin);
      if (!at[part]) at[part] = YAML::Node(YAML::NodeType::Map);
      at.reset(at[part]);
    }
    at[path.substr(begin)] = *v;
  }
  YAML::Emitter out;
  out << root;
  return out.c_str();
}

}  // namespace cartex::core::detail
