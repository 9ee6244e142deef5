#include "resolved_yaml.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <type_traits>

#include "walls/wall_face.hpp"

namespace cartex::core::detail {

namespace {

const char* const kAxis[3] = {"x", "y", "z"};

// A value for the resolved YAML; a double in the fewest digits that read back to the same bits.
template <class T>
YAML::Node value_node(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return YAML::Node(fmt::format("{}", v));
  else
    return YAML::Node(v);
}

// The stencil as the input spelled it, with weights to the last bit, so it reloads to the same Stencil.
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
YAML::Node physics_node(const PhysicsValue& v) {
  if (!v.mapping.empty()) return YAML::Load(v.mapping);
  if (v.numbers.size() == 1) return value_node(v.numbers.front());
  YAML::Node n(YAML::NodeType::Sequence);
  for (const double x : v.numbers) n.push_back(value_node(x));
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

}  // namespace

std::string emit_resolved(const Config& c) {
  const int dim = c.grid.dim;
  auto list = [dim](const auto& a) {
    YAML::Node n(YAML::NodeType::Sequence);
    for (int d = 0; d < dim; ++d) n.push_back(value_node(a[d]));
    n.SetStyle(YAML::EmitterStyle::Flow);
    return n;
  };
  YAML::Node root;
  root["grid"]["n"] = list(c.grid.n);
  root["grid"]["length"] = list(c.grid.length);
  root["grid"]["periodic"] = list(c.grid.periodic);
  root["processes"]["dims"] = list(c.process_dims);
  root["processes"]["reorder"] = c.reorder;
  for (const auto& [key, v] : c.physics) {
    const auto coefficient = c.coefficients.find(key);
    const bool field = coefficient != c.coefficients.end() && coefficient->second.is_field();
    root["physics"][key] = field ? coefficient_node(c, coefficient->second) : physics_node(v);
  }
  root["physics"]["dt"] = value_node(c.dt);  // the resolved step only (not cfl too), so the resolved YAML is a valid input
  root["stencil"] = stencil_node(c);
  YAML::Node b(YAML::NodeType::Map);
  for (int d = 0; d < dim; ++d) {
    if (c.grid.periodic[d]) continue;
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
    b[kAxis[d]] = v;
  }
  if (b.size() == 0) b.SetStyle(YAML::EmitterStyle::Flow);  // "boundary: {}" on one line
  root["boundary"] = b;
  root["init"]["type"] = c.init.type;
  root["init"]["amplitude"] = value_node(c.init.amplitude);
  if (c.init.type == "sine") {
    root["init"]["modes"] = list(c.init.modes);
  } else {
    root["init"]["center"] = list(c.init.center);
    root["init"]["width"] = value_node(c.init.width);
  }
  if (c.end_time > 0)
    root["run"]["end_time"] = value_node(c.end_time);  // with the resolved dt above, it reloads to the same steps
  else
    root["run"]["steps"] = c.steps;
  root["run"]["progress_every"] = c.progress_every;
  root["run"]["wall_time_limit"] = value_node(c.wall_time_limit);
  if (c.wall_time_limit > 0) root["run"]["wall_time_margin"] = value_node(c.wall_time_margin);
  root["run"]["stopped_exit_code"] = c.stopped_exit_code;
  root["comm"]["backend"] = c.backend;
  if (c.overlap == OverlapInput::kAuto)
    root["comm"]["overlap"] = "auto";
  else
    root["comm"]["overlap"] = c.overlap == OverlapInput::kOn;
  root["comm"]["allreduce"] = c.allreduce;
  root["comm"]["gpu_aware_mpi"] = gpu_aware_mpi_text(c.gpu_aware_mpi);
  if (c.steps_per_exchange == kAutoSteps)
    root["halo"]["steps_per_exchange"] = "auto";
  else
    root["halo"]["steps_per_exchange"] = c.steps_per_exchange;
  if (c.temporal_blocking.mode == TemporalBlockingInput::Mode::kTiles)
    root["halo"]["temporal_blocking"]["tile_y"] = c.temporal_blocking.tile_y;
  else
    root["halo"]["temporal_blocking"] = c.temporal_blocking.mode == TemporalBlockingInput::Mode::kOff ? "off" : "auto";
  root["output"]["dir"] = c.output_dir;
  root["output"]["history"] = c.write_history;
  if (c.output_every_time > 0)
    root["output"]["every_time"] = value_node(c.output_every_time);
  else
    root["output"]["every"] = c.output_every;
  YAML::Node fields(YAML::NodeType::Sequence);
  for (const auto& f : c.output_fields) fields.push_back(f);
  fields.SetStyle(YAML::EmitterStyle::Flow);
  root["output"]["fields"] = fields;
  if (c.checkpoint_every_time > 0)
    root["output"]["checkpoint_every_time"] = value_node(c.checkpoint_every_time);
  else
    root["output"]["checkpoint_every"] = c.checkpoint_every;
  root["output"]["keep_checkpoints"] = c.keep_checkpoints;
  YAML::Emitter out;
  out << root;
  return out.c_str();
}

}  // namespace cartex::core::detail
