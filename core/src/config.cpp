#include "cartex/core/config.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "cartex/core/error.hpp"
#include "cartex/core/stability.hpp"
#include "cartex/core/stencil_registry.hpp"
#include "coefficient_input.hpp"
#include "input_schema.hpp"
#include "resolved_yaml.hpp"
#include "walls/wall_face.hpp"
#include "yaml_layers.hpp"

namespace cartex::core {

const CoefficientInput* field_coefficient(const Config& cfg, const std::string& name) {
  const auto it = cfg.coefficients.find(name);
  return it != cfg.coefficients.end() && it->second.is_field() ? &it->second : nullptr;
}

bool has_field_coefficient(const Config& cfg) { return field_coefficient_count(cfg) > 0; }

int field_coefficient_count(const Config& cfg) {
  int n = 0;
  for (const auto& [name, c] : cfg.coefficients)
    if (c.is_field()) ++n;
  return n;
}

std::vector<std::string> known_output_fields(const Config& cfg) {
  std::vector<std::string> names = cfg.fields;
  names.push_back("rank");
  for (const auto& [name, c] : cfg.coefficients)
    if (c.is_field()) names.push_back(name);  // a field coefficient (heat's alpha)
  return names;
}

const char* gpu_aware_mpi_text(GpuAwareMpiInput g) {
  return g == GpuAwareMpiInput::kOn ? "on" : g == GpuAwareMpiInput::kOff ? "off" : "auto";
}

namespace {

using detail::decode;
using detail::read_own_keys;
using detail::YamlSection;

const char* kAxis[3] = {"x", "y", "z"};

// Size limits that keep every count far from overflowing (docs/input.md): a rank's extent plus its
// halos fits MPI's int counts, all cells (times halo factors and bytes) fit a long, and the step
// counter and step times stay exact integers in a double.
constexpr long kMaxCellsPerDim = 1L << 30;
constexpr long kMaxCells = 1L << 50;
constexpr long kMaxSteps = 1000000000000000L;  // 10^15

// Reads a per-dimension list that may also be given as one scalar for every dimension (absent: the
// key's default, one scalar); entries past `dim` are `rest`.
template <class T>
std::array<T, 3> per_dim(YamlSection& s, const std::string& key, int dim, T rest, const std::string& what) {
  const YAML::Node n = s.value(key);
  std::array<T, 3> out{rest, rest, rest};
  if (n.IsScalar()) {
    T v{};
    if (!decode(n, v)) s.fail(key, fmt::format("expected {} (one value or a list of {})", what, dim));
    for (int d = 0; d < dim; ++d) out[d] = v;
    return out;
  }
  if (!n.IsSequence() || static_cast<int>(n.size()) != dim)
    s.fail(key, fmt::format("expected a list of {} entries ({}), one per dimension of grid.n", dim, what));
  for (int d = 0; d < dim; ++d)
    if (!decode(n[d], out[d])) s.fail(key, fmt::format("expected {} in every entry", what));
  return out;
}

GlobalGrid read_grid(YamlSection& g) {
  GlobalGrid grid;
  std::vector<long> n = g.get_long_list("n", "a list of 2 or 3 positive integers (cells per dimension)");
  if (!g.has("n")) g.fail("n", "required key is missing (a list of 2 or 3 positive integers, cells per dimension)");
  if (n.size() != 2 && n.size() != 3) g.fail("n", fmt::format("expected 2 or 3 entries (a 2D or 3D grid), got {}", n.size()));
  grid.dim = static_cast<int>(n.size());
  for (int d = 0; d < grid.dim; ++d) {
    if (n[d] < 1) g.fail("n", fmt::format("expected positive cell counts, got {} in {}", n[d], kAxis[d]));
    if (n[d] > kMaxCellsPerDim)
      g.fail("n", fmt::format("expected at most {} cells per dimension (2^30: message sizes are int counts), got {} in {}",
                              kMaxCellsPerDim, n[d], kAxis[d]));
    grid.n[d] = n[d];
  }
  if (grid.n[0] * grid.n[1] > kMaxCells / grid.n[2])  // each factor <= 2^30: the first product cannot overflow
    g.fail("n", fmt::format("{} cells in all exceed the limit of {} (2^50, beyond any machine's memory)",
                            fmt::join(n, " * "), kMaxCells));
  grid.length = per_dim<double>(g, "length", grid.dim, 1.0, "positive numbers");
  for (int d = 0; d < grid.dim; ++d)
    if (!(grid.length[d] > 0))
      g.fail("length", fmt::format("expected positive lengths, got {} in {}", grid.length[d], kAxis[d]));
  grid.periodic = per_dim<bool>(g, "periodic", grid.dim, true, "true or false");
  if (grid.dim == 2) grid.periodic[2] = true;
  g.finish();
  return grid;
}

// stencil: {type: star, order: 2|4|6|8, radius: 1..4} (either or both).
void read_star_stencil(YamlSection& s, Config& cfg) {
  const std::optional<long> given_order = s.get_optional_long("order", "an even order 2, 4, 6 or 8");
  const std::optional<long> given_radius = s.get_optional_long("radius", "a radius 1, 2, 3 or 4");
  const bool has_order = given_order.has_value(), has_radius = given_radius.has_value();
  const long order = given_order.value_or(0), radius = given_radius.value_or(0);
  if (!has_order && !has_radius) s.fail("order", "required key is missing (give order: 2, 4, 6 or 8, or radius: 1 to 4)");
  const auto orders = star_orders();
  if (has_order && std::find(orders.begin(), orders.end(), order) == orders.end())
    s.fail("order", fmt::format("expected 2, 4, 6 or 8, got {}", order));
  if (has_radius && (radius < 1 || radius > 4)) s.fail("radius", fmt::format("expected 1, 2, 3 or 4, got {}", radius));
  if (has_order && has_radius && order != 2 * radius)
    s.fail("radius", fmt::format("radius {} does not match order {} (a star of order p has radius p/2)", radius, order));
  s.finish();
  cfg.stencil_input.form = StencilInput::Form::kStar;
  cfg.stencil_input.order = static_cast<int>(has_order ? order : 2 * radius);
  cfg.stencil = make_star_stencil(cfg.stencil_input.order, cfg.grid);
}

// stencil: {type: box, radius: 1, order: 2}: the compact builtin 9pt/27pt, under its builtin name.
void read_box_stencil(YamlSection& s, YamlSection& root, Config& cfg) {
  const std::string why =
      "only the compact box of radius 1 and order 2 (9pt in 2D, 27pt in 3D) is built in: there is no single standard "
      "higher-order box Laplacian; give offsets and weights for the one you want";
  if (s.get_optional_long("radius", "a radius (1)").value_or(1) != 1) s.fail("radius", "expected 1: " + why);
  if (s.get_optional_long("order", "an order (2)").value_or(2) != 2) s.fail("order", "expected 2: " + why);
  s.finish();
  try {
    cfg.stencil = make_builtin_stencil(cfg.grid.dim == 2 ? "9pt" : "27pt", cfg.grid);
  } catch (const std::invalid_argument& e) {
    root.fail("stencil", e.what());
  }
}

// stencil: {offsets: [[dx, dy(, dz)], ...], weights: [...], name: ..., derivative: 2}.
void read_custom_stencil(YamlSection& s, Config& cfg) {
  const int dim = cfg.grid.dim;
  const std::string entry_form = dim == 2 ? "[dx, dy]" : "[dx, dy, dz]";
  YAML::Node offsets = s.node("offsets");
  if (!offsets || offsets.IsNull()) s.fail("offsets", fmt::format("required key is missing (a list of {} integer offsets)", entry_form));
  if (!offsets.IsSequence() || offsets.size() == 0)
    s.fail("offsets", fmt::format("expected a non-empty list of {} integer offsets", entry_form));
  std::vector<Offset> points;
  for (std::size_t q = 0; q < offsets.size(); ++q) {
    const YAML::Node e = offsets[q];
    Offset o{0, 0, 0};
    bool ok = e.IsSequence() && static_cast<int>(e.size()) == dim;
    for (int d = 0; ok && d < dim; ++d) ok = decode(e[d], o[d]);
    if (!ok)
      s.fail_entry("offsets", e,
                    fmt::format("entry {}: expected {} integers {} (the grid is {}D)", q + 1, dim, entry_form, dim));
    for (int d = 0; d < dim; ++d)
      if (std::abs(static_cast<long>(o[d])) > cfg.grid.n[d])
        s.fail_entry("offsets", e,
                     fmt::format("entry {}: offset {} reaches beyond the grid's {} cells in {}", q + 1,
                                 offset_text(o, dim), cfg.grid.n[d], kAxis[d]));
    points.push_back(o);
  }
  YAML::Node weights = s.node("weights");
  if (!weights || weights.IsNull()) s.fail("weights", "required key is missing (a list of numbers, one per offset)");
  if (!weights.IsSequence()) s.fail("weights", "expected a list of numbers, one per offset");
  std::vector<double> w;
  for (std::size_t q = 0; q < weights.size(); ++q) {
    double v = 0;
    if (!decode(weights[q], v)) s.fail_entry("weights", weights[q], fmt::format("entry {}: expected a finite number", q + 1));
    w.push_back(v);
  }
  const std::string name = s.get_string("name", "a stencil name");
  if (name.empty()) s.fail("name", "expected a non-empty name");
  const auto reserved = reserved_stencil_names();
  if (std::find(reserved.begin(), reserved.end(), name) != reserved.end() || is_registered_stencil(name))
    s.fail("name", fmt::format("\"{}\" already names a builtin or registered stencil; choose another name", name));
  if (s.has("divide_by_h2"))
    s.fail("divide_by_h2",
           "replaced by stencil.derivative (the derivative the unit-spacing weights approximate): divide_by_h2: true is "
           "derivative: 2 (the default), divide_by_h2: false is derivative: 0 (weights used as given)");
  constexpr const char* kDerivative = "0, 1 or 2 (the derivative the weights approximate: they are divided by h^derivative)";
  const long derivative = s.get_long("derivative", kDerivative);
  const auto derivatives = stencil_derivatives();
  if (std::find(derivatives.begin(), derivatives.end(), derivative) == derivatives.end())
    s.fail("derivative", fmt::format("expected {}, got {}", kDerivative, derivative));
  s.finish();
  try {
    cfg.stencil = make_custom_stencil(name, points, w, static_cast<int>(derivative), cfg.grid);
  } catch (const InvalidStencil& e) {
    const bool at_offset = e.part() == InvalidStencil::Part::kOffset;
    const std::string key = at_offset ? "offsets" : "weights";
    const YAML::Node list = at_offset ? offsets : weights;
    if (e.point() >= 0) s.fail_entry(key, list[e.point()], e.what());
    s.fail(key, e.what());
  } catch (const std::invalid_argument& e) {
    s.fail("derivative", e.what());
  }
  cfg.stencil_input.form = StencilInput::Form::kCustom;
  cfg.stencil_input.weights = w;
  cfg.stencil_input.derivative = static_cast<int>(derivative);
}

// halo.steps_per_exchange: a positive integer or auto (the default). docs/input.md.
void read_steps_per_exchange(YamlSection& halo, Config& cfg) {
  constexpr const char* kExpected = "a positive integer (time steps per halo exchange) or auto";
  if (halo.is_auto("steps_per_exchange")) return void(cfg.steps_per_exchange = kAutoSteps);
  cfg.steps_per_exchange = halo.get_long("steps_per_exchange", kExpected);
  if (cfg.steps_per_exchange < 1)
    halo.fail("steps_per_exchange", fmt::format("expected {}, got {}", kExpected, cfg.steps_per_exchange));
}

// halo.temporal_blocking: auto, off, or a mapping {tile_y: N}. docs/input.md.
void read_temporal_blocking(YamlSection& halo, Config& cfg) {
  constexpr const char* kExpected = "auto, off, or a mapping {tile_y: N} (N a positive integer)";
  const YAML::Node n = halo.node("temporal_blocking");
  auto& tb = cfg.temporal_blocking;
  if (n && n.IsMap()) {
    YamlSection s = halo.section("temporal_blocking");
    const std::optional<long> tile_y = s.get_optional_long("tile_y", "a positive integer (rows of a tile in y)");
    s.finish();
    if (!tile_y) s.fail("tile_y", "required key is missing (rows of a tile in y, a positive integer)");
    tb.tile_y = *tile_y;
    if (tb.tile_y < 1) s.fail("tile_y", fmt::format("expected a positive integer (rows of a tile in y), got {}", tb.tile_y));
    tb.mode = TemporalBlockingInput::Mode::kTiles;
    return;
  }
  if (n && !n.IsNull() && !n.IsScalar()) halo.fail("temporal_blocking", fmt::format("expected {}", kExpected));
  const std::string mode = halo.get_string("temporal_blocking", kExpected);
  if (mode == "auto")
    tb.mode = TemporalBlockingInput::Mode::kAuto;
  else if (mode == "off")
    tb.mode = TemporalBlockingInput::Mode::kOff;
  else
    halo.fail("temporal_blocking", fmt::format("expected {}, got \"{}\"", kExpected, mode));
}

// The `stencil` key: a builtin or registered name, or a mapping (type: star or box; or offsets and
// weights). docs/input.md and docs/stencils.md.
void read_stencil(YamlSection& root, Config& cfg) {
  const YAML::Node n = root.node("stencil");
  if (n && n.IsMap()) {
    YamlSection s = root.section("stencil");
    if (s.has("offsets") || s.has("weights")) return read_custom_stencil(s, cfg);
    const std::string type = s.get_optional_string("type", "star or box").value_or("");
    if (type.empty())
      s.fail("type", "required key is missing (star or box; or offsets and weights for a custom stencil)");
    if (type == "star") return read_star_stencil(s, cfg);
    if (type == "box") return read_box_stencil(s, root, cfg);
    s.fail("type", fmt::format("expected star or box, got \"{}\" (or give offsets and weights for a custom stencil)", type));
  }
  if (n && !n.IsNull() && !n.IsScalar())
    root.fail("stencil", "expected a stencil name or a mapping (type: star or box; or offsets and weights)");
  const std::string name =
      root.get_optional_string("stencil", "a stencil name").value_or(cfg.grid.dim == 3 ? "7pt" : "5pt");  // the schema's derived default
  try {
    cfg.stencil = make_named_stencil(name, cfg.grid);
  } catch (const std::invalid_argument& e) {
    root.fail("stencil", e.what());
  }
}

// A mapping value as one line of flow YAML.
std::string flow_text(const YAML::Node& n) {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << n;
  return e.c_str();
}

// The value of the equation's physics key `k` (its default when absent and optional).
PhysicsValue read_physics_key(YamlSection& p, const PhysicsKey& k, int dim) {
  using Kind = PhysicsKey::Kind;
  const std::string what = fmt::format("{} ({})", k.expected, k.quantity);
  const YAML::Node n = p.node(k.name);
  PhysicsValue v;
  if (!n || n.IsNull()) {
    if (k.required()) p.fail(k.name, fmt::format("required key is missing ({}, the {})", k.expected, k.quantity));
    v.numbers = k.default_numbers;
    return v;
  }
  if (n.IsMap() && (k.kind == Kind::kMapping || k.kind == Kind::kPositiveNumberOrMapping)) {
    v.mapping = flow_text(n);
  } else if (k.kind == Kind::kMapping) {
    p.fail(k.name, fmt::format("expected {}", what));
  } else if (k.kind == Kind::kNumberList) {
    v.numbers = p.get_double_list(k.name, what);
    const std::size_t size = k.list_size > 0 ? k.list_size : static_cast<std::size_t>(dim);
    if (v.numbers.size() != size) p.fail(k.name, fmt::format("expected {} entries ({}), got {}", size, what, v.numbers.size()));
  } else {
    const double x = *p.get_optional_double(k.name, what);
    const bool sign_ok = k.kind == Kind::kNonNegativeNumber ? x >= 0 : x > 0;
    if (!sign_ok) p.fail(k.name, fmt::format("expected {}, got {}", k.expected, x));
    v.numbers = {x};
  }
  if (k.check)
    if (const std::string why = k.check(v, dim); !why.empty()) p.fail(k.name, why);
  return v;
}

// The physics key with the largest value (in magnitude): where an operator whose weights overflow is
// located, the value most likely too large for the grid.
std::string largest_physics_key(const EquationInput& equation, const PhysicsValues& values) {
  std::string key = equation.keys.empty() ? std::string("dt") : equation.keys.front().name;
  double largest = -1;
  for (const auto& k : equation.keys) {
    const auto it = values.find(k.name);
    if (it == values.end()) continue;
    for (const double v : it->second.numbers)
      if (std::abs(v) > largest) largest = std::abs(v), key = k.name;
  }
  return key;
}

std::string overflow_text(const Stencil& op, const GlobalGrid& grid) {
  std::string h;
  for (int d = 0; d < grid.dim; ++d) h += fmt::format("{}{:g}", d ? ", " : "", grid.spacing(d));
  return fmt::format("the operator this builds from stencil {} has a weight that is not a finite number (it overflows a "
                     "double with the grid spacing h = [{}]): expected values this grid can step",
                     op.name, h);
}

// Reads the equation's physics keys into cfg.physics and sets cfg.dt from physics.dt or physics.cfl
// against the stability limit of the equation's integrator with this stencil (the row's dt_max;
// physics/include/cartex/physics/equation.hpp), or with the operator the equation builds from it,
// which it returns.
Stencil read_physics(YamlSection& p, const EquationInput& equation, Config& cfg) {
  for (const auto& k : equation.keys) {
    if (k.kind != PhysicsKey::Kind::kCoefficient) {
      cfg.physics[k.name] = read_physics_key(p, k, cfg.grid.dim);
      continue;
    }
    const CoefficientInput c = detail::read_coefficient_input(p, k.name, cfg.grid,
                                                              fmt::format("required key is missing ({}, the {})", k.expected, k.quantity));
    // A field: the flux form on the second-order star (kernels/flux_diffusion.hpp), whose limit is
    // the star's with the field's largest value (Gershgorin there), the value the row's dt_max gets.
    if (c.is_field() && !detail::takes_field_coefficient(cfg.stencil))
      p.fail(k.name, fmt::format("a field {} ({}) takes the second-order star stencil only ({}, or {{type: star, order: 2}}); "
                                 "the stencil is {}",
                                 k.name, coefficient_form_name(c.form), cfg.grid.dim == 3 ? "7pt" : "5pt", cfg.stencil.name));
    cfg.physics[k.name].numbers = {detail::coefficient_max(c)};
    cfg.coefficients[k.name] = c;
  }
  const Stencil op = equation.operator_stencil ? equation.operator_stencil(cfg.stencil, cfg.physics, cfg.grid) : cfg.stencil;
  for (const double w : op.weights)
    if (!std::isfinite(w)) p.fail(largest_physics_key(equation, cfg.physics), overflow_text(op, cfg.grid));
  TimeStepLimit lim;
  try {
    lim = equation.dt_max(op, cfg.physics);
  } catch (const NoStableTimeStep& e) {
    p.fail(p.has("dt") ? "dt" : "cfl", fmt::format("stencil {}: {}", op.name, e.what()));
  }
  cfg.dt_max = lim.dt_max;
  const std::string limit =
      lim.from_spectral_radius ? equation.limit_text : fmt::format("{}, from the stencil's Fourier symbol", equation.integrator);
  auto dt = p.get_optional_double("dt", "a positive number (time step)");
  auto cfl = p.get_optional_double("cfl", "a number in (0, 1] (fraction of the stability limit)");
  if (dt && cfl) p.fail("cfl", "give either physics.dt or physics.cfl, not both");
  if (!dt && !cfl) p.fail("dt", "required key is missing (give physics.dt or physics.cfl)");
  if (dt) {
    if (!(*dt > 0)) p.fail("dt", fmt::format("expected a positive number, got {}", *dt));
    if (*dt > cfg.dt_max)
      p.fail("dt", fmt::format("{} exceeds the stability limit {:.6g} of stencil {} on this grid ({}, {})", *dt, cfg.dt_max, op.name,
                               limit, limiting_mode_text(lim, cfg.grid.dim)));
    cfg.dt = *dt;
    cfg.cfl = *dt / cfg.dt_max;
  } else {
    if (!(*cfl > 0) || *cfl > 1) p.fail("cfl", fmt::format("expected a number in (0, 1], got {}", *cfl));
    if (std::isinf(cfg.dt_max))
      p.fail("cfl", fmt::format("stencil {} sets no stability limit (every mode grows with the equation or decays at any "
                                "dt), so no fraction of it is a time step; give physics.dt",
                                op.name));
    cfg.cfl = *cfl;
    cfg.dt = *cfl * cfg.dt_max;
  }
  p.finish();
  return op;
}

// boundary.<d>: [low, high] (Dirichlet values), periodic, or {low: face, high: face}. grid.periodic
// decides which dimensions wrap around; boundary must agree with it (docs/input.md).
void read_boundary(YamlSection& b, Config& cfg) {
  for (int d = 0; d < 3; ++d) {
    const std::string key = kAxis[d];
    const bool periodic = cfg.grid.periodic[d];
    BoundaryFace def;
    if (periodic) def.kind = WallKind::kPeriodic;
    cfg.boundary[d] = {def, def};
    if (!b.has(key)) {
      b.node(key);
      continue;
    }
    if (d >= cfg.grid.dim) b.fail(key, fmt::format("the grid is {}D and has no {} dimension", cfg.grid.dim, key));
    const std::string disagree_periodic =
        fmt::format("periodic, but grid.periodic makes {} non-periodic (a periodic face needs its partner periodic and "
                    "grid.periodic's {} entry true)", key, key);
    const std::string disagree_wall =
        fmt::format("a wall, but grid.periodic makes {} periodic (set grid.periodic's {} entry false for walls)", key, key);
    YAML::Node n = b.node(key);
    if (n.IsScalar() && n.Scalar() == "periodic") {
      if (!periodic) b.fail(key, disagree_periodic);
      continue;
    }
    if (!n.IsMap()) {
      const std::string expected =
          "a list [low, high] of two finite numbers (Dirichlet values), periodic, or a mapping {low: ..., high: ...}";
      if (periodic)
        b.fail(key, fmt::format("dimension {} is periodic (grid.periodic); Dirichlet values apply only to non-periodic dimensions", key));
      std::vector<double> v = b.get_double_list(key, expected);
      if (v.size() != 2) b.fail(key, "expected " + expected);
      for (int side = 0; side < 2; ++side) cfg.boundary[d][side].value = v[side];
      continue;
    }
    YamlSection faces = b.section(key);
    for (int side = 0; side < 2; ++side) {
      const std::string face = side == 0 ? "low" : "high";
      const BoundaryFace f = read_wall_face(faces, face, def);
      if ((f.kind == WallKind::kPeriodic) != periodic) faces.fail(face, periodic ? disagree_wall : disagree_periodic);
      cfg.boundary[d][side] = f;
      if (!periodic) cfg.grid.wall[d][side] = f.kind;
    }
    faces.finish();
  }
  b.finish();
}

// Checks of the boundary against keys read after it (the stencil, the initial condition, temporal
// blocking), located at the face.
void check_boundary(const YamlSection& b, const Config& cfg) {
  const HaloWidths r = cfg.stencil.reach();
  const auto fail = [&b](const std::string& key, const std::string& what) {
    const auto it = b.read_locations().find("boundary." + key);  // every face read has its location
    throw InputError(fmt::format("{}: boundary.{}: {}", it == b.read_locations().end() ? b.where(key) : it->second, key, what));
  };
  for (int d = 0; d < cfg.grid.dim; ++d)
    for (int side = 0; side < 2; ++side) {
      const WallKindRow& row = wall_kind_row(cfg.boundary[d][side].kind);
      const std::string key = fmt::format("{}.{}", kAxis[d], side == 0 ? "low" : "high");
      const long reach = side == 0 ? r.lo[d] : r.hi[d];
      if (row.mirrors && reach > cfg.grid.n[d])
        fail(key, fmt::format("a {} wall mirrors the stencil's reach of {} cells, but {} has only {} (grid.n)", row.title, reach,
                                kAxis[d], cfg.grid.n[d]));
      if (row.needs_exact && cfg.init.type != "sine")
        fail(key, fmt::format("{}: {} follows the sine mode's exact solution, but init.type is {} (give init.type: sine)", row.word,
                                row.value_type, cfg.init.type));
    }
}

void read_init(YamlSection& s, Config& cfg) {
  InitConfig& init = cfg.init;
  init.type = s.get_string("type", "sine or gaussian");
  if (init.type != "sine" && init.type != "gaussian")
    s.fail("type", fmt::format("expected sine or gaussian, got \"{}\"", init.type));
  read_own_keys(s, cfg);
  const int dim = cfg.grid.dim;
  if (init.type == "sine") {
    init.modes = per_dim<int>(s, "modes", dim, 1, "positive integers");
    for (int d = 0; d < dim; ++d)
      if (init.modes[d] < 1) s.fail("modes", fmt::format("expected positive mode numbers, got {} in {}", init.modes[d], kAxis[d]));
    if (dim == 2) init.modes[2] = 0;
  } else {
    std::array<double, 3> mid{};
    for (int d = 0; d < 3; ++d) mid[d] = d < dim ? 0.5 * cfg.grid.length[d] : 0.0;
    init.center = s.has("center") ? per_dim<double>(s, "center", dim, 0.0, "finite numbers (physical coordinates)")
                                  : (s.node("center"), mid);  // marks it read; the schema's derived default
    init.width = s.get_double("width", "a positive number");
    if (!(init.width > 0)) s.fail("width", fmt::format("expected a positive number, got {}", init.width));
  }
  s.finish();
}

// Reads a non-negative number of seconds or simulated time (0 = unused) at `key`.
double read_non_negative(YamlSection& s, const std::string& key, const std::string& meaning) {
  const double v = s.get_double(key, "a non-negative number (" + meaning + ")");
  if (!(v >= 0)) s.fail(key, fmt::format("expected a non-negative number ({}), got {}", meaning, v));
  return v;
}

// run.end_time: n = ceil(end_time / dt) steps of the uniform dt = end_time / n <= the requested dt, so
// the last step lands on end_time and the stability limit still holds. A ratio within 1e-9 of an
// integer counts as that integer (an end_time that is a multiple of dt up to rounding).
void resolve_end_time(YamlSection& run, Config& cfg) {
  const double ratio = cfg.end_time / cfg.dt;
  if (ratio > static_cast<double>(kMaxSteps))
    run.fail("end_time", fmt::format("{} / dt = {:.6g} steps exceed the limit of {} steps (10^15)", cfg.end_time, ratio,
                                     kMaxSteps));
  double n = std::ceil(ratio - 1e-9 * ratio);
  if (cfg.end_time / n > cfg.dt_max) n += 1;  // rounding down within the tolerance must not break stability
  cfg.steps = static_cast<long>(n);
  cfg.dt = cfg.end_time / n;
  cfg.cfl = cfg.dt / cfg.dt_max;
}

// The run section: run.steps or run.end_time, progress, wall-time limit.
void read_run(YamlSection& run, Config& cfg) {
  cfg.steps = run.get_long("steps", "a non-negative integer (time steps)");
  if (cfg.steps < 0) run.fail("steps", fmt::format("expected a non-negative integer, got {}", cfg.steps));
  if (cfg.steps > kMaxSteps)
    run.fail("steps", fmt::format("expected at most {} steps (10^15), got {}", kMaxSteps, cfg.steps));
  if (const auto end_time = run.get_optional_double("end_time", "a positive number (simulated time to stop at)")) {
    if (run.has("steps")) run.fail("end_time", "give either run.steps or run.end_time, not both");
    cfg.end_time = *end_time;
    if (!(cfg.end_time > 0))
      run.fail("end_time", fmt::format("expected a positive number (simulated time to stop at), got {}", cfg.end_time));
    resolve_end_time(run, cfg);
  }
  read_own_keys(run, cfg);
  cfg.wall_time_margin = read_non_negative(run, "wall_time_margin", "seconds kept in reserve");
  if (run.has("wall_time_margin") && cfg.wall_time_limit == 0)
    run.fail("wall_time_margin", "needs run.wall_time_limit (a margin below no limit means nothing)");
  if (cfg.wall_time_limit > 0 && cfg.wall_time_margin >= cfg.wall_time_limit)
    run.fail("wall_time_margin", fmt::format("expected less than run.wall_time_limit = {}, got {}", cfg.wall_time_limit,
                                             cfg.wall_time_margin));
  run.finish();
}

// Reads `steps_key` (steps between files) or `time_key` (simulated time between files), not both.
void read_interval(YamlSection& s, const std::string& steps_key, const std::string& time_key, const std::string& what,
                   long& every, double& every_time) {
  every = s.get_long(steps_key, fmt::format("a non-negative integer (steps between {}, 0 = none)", what));
  if (every < 0) s.fail(steps_key, fmt::format("expected a non-negative integer, got {}", every));
  every_time = read_non_negative(s, time_key, fmt::format("simulated time between {}, 0 = none", what));
  if (s.has(steps_key) && s.has(time_key))
    s.fail(time_key, fmt::format("give either output.{} or output.{}, not both", steps_key, time_key));
}

// Reads the HDF5 output keys: field files, their fields, checkpoints (docs/output.md).
void read_output_files(YamlSection& s, Config& cfg) {
  read_interval(s, "every", "every_time", "field files", cfg.output_every, cfg.output_every_time);
  const auto known = known_output_fields(cfg);
  const std::string expected = fmt::format("a non-empty list of field names (from: {})", fmt::join(known, ", "));
  if (!s.node("fields")) {  // marks the key read (located at its section) when absent
    cfg.output_fields = cfg.fields;
    return read_interval(s, "checkpoint_every", "checkpoint_every_time", "checkpoints", cfg.checkpoint_every,
                         cfg.checkpoint_every_time);
  }
  const YAML::Node n = s.value("fields");
  if (!n.IsSequence() || n.size() == 0) s.fail("fields", "expected " + expected);
  cfg.output_fields.clear();
  for (const auto& e : n) {
    const std::string name = e.IsScalar() ? e.Scalar() : std::string();
    if (std::find(known.begin(), known.end(), name) == known.end())
      s.fail("fields", fmt::format("unknown field \"{}\" (expected one of: {})", name, fmt::join(known, ", ")));
    if (std::find(cfg.output_fields.begin(), cfg.output_fields.end(), name) != cfg.output_fields.end())
      s.fail("fields", fmt::format("field \"{}\" is listed twice", name));
    cfg.output_fields.push_back(name);
  }
  read_interval(s, "checkpoint_every", "checkpoint_every_time", "checkpoints", cfg.checkpoint_every, cfg.checkpoint_every_time);
}

// "physics.alpha and " for the required physics keys of `equation` ("" when it has none).
std::string required_physics_text(const EquationInput& equation) {
  std::vector<std::string> names;
  for (const auto& k : equation.keys)
    if (k.required()) names.push_back("physics." + k.name);
  return names.empty() ? std::string() : fmt::format("{} and ", fmt::join(names, ", "));
}

// Reads and validates the layered input (load_config without the yaml-cpp safety net).
Config read_config(const InputSources& in, const EquationInput& equation) {
  YamlSection root = detail::load_yaml(in, equation);
  Config cfg;
  cfg.source = fmt::format("{}", fmt::join(in.files, " + "));
  cfg.equation = equation.name;
  cfg.fields = equation.fields;

  YamlSection grid = root.section("grid");
  if (!root.has("grid")) root.fail("grid", "required section is missing (grid.n at least)");
  cfg.grid = read_grid(grid);
  const int dim = cfg.grid.dim;

  YamlSection procs = root.section("processes");
  {
    const std::array<long, 3> dims =
        per_dim<long>(procs, "dims", dim, 0, "non-negative integers, 0 = chosen by MPI");
    for (int d = 0; d < dim; ++d) {
      if (dims[d] < 0) procs.fail("dims", fmt::format("expected non-negative entries (0 = chosen by MPI), got {}", dims[d]));
      if (dims[d] > cfg.grid.n[d])
        procs.fail("dims", fmt::format("{} processes in {} exceed the {} cells there", dims[d], kAxis[d], cfg.grid.n[d]));
      cfg.process_dims[d] = static_cast<int>(dims[d]);
    }
    if (dim == 2) cfg.process_dims[2] = 1;
    read_own_keys(procs, cfg);
    procs.finish();
  }

  // Before the stencil: the walls' kinds decide the grid spacing (grid.hpp).
  YamlSection boundary = root.section("boundary");
  read_boundary(boundary, cfg);

  read_stencil(root, cfg);

  YamlSection physics = root.section("physics");
  if (!root.has("physics"))
    root.fail("physics", fmt::format("required section is missing ({}physics.dt or physics.cfl)", required_physics_text(equation)));
  const Stencil op = read_physics(physics, equation, cfg);

  YamlSection init = root.section("init");
  read_init(init, cfg);

  YamlSection run = root.section("run");
  read_run(run, cfg);

  YamlSection comm = root.section("comm");
  read_own_keys(comm, cfg);
  comm.finish();

  YamlSection halo = root.section("halo");
  read_steps_per_exchange(halo, cfg);
  read_temporal_blocking(halo, cfg);
  halo.finish();
  check_boundary(boundary, cfg);

  YamlSection output = root.section("output");
  read_own_keys(output, cfg);
  read_output_files(output, cfg);
  output.finish();

  root.finish();
  cfg.where = root.read_locations();
  cfg.resolved_yaml = detail::emit_resolved(cfg, equation);
  cfg.stencil = op;  // after the resolved YAML, which spells the input's stencil
  return cfg;
}

}  // namespace

double physics_number(const Config& cfg, const std::string& key) {
  const auto it = cfg.physics.find(key);
  if (it == cfg.physics.end() || it->second.numbers.size() != 1)
    throw Error(fmt::format("internal: the {} equation has no number physics.{}", cfg.equation, key));
  return it->second.numbers.front();
}

std::string input_error_text(const Config& cfg, const std::string& key, const std::string& what) {
  // The key's own location; for a key the loader did not read, its nearest section's (the top level's at least).
  std::string at = key;
  auto it = cfg.where.find(at);
  while (it == cfg.where.end() && !at.empty()) {
    at.erase(at.find('.') == std::string::npos ? 0 : at.rfind('.'));
    it = cfg.where.find(at);
  }
  if (it == cfg.where.end()) throw Error(fmt::format("internal: no input location for {}: the Config was not loaded", key));
  return fmt::format("{}: {}: {}", it->second, key, what);
}

Stencil halo_stencil(const Config& cfg) {
  std::array<bool, 3> mirrored{};
  for (int d = 0; d < 3; ++d)
    for (const BoundaryFace& f : cfg.boundary[d]) mirrored[d] = mirrored[d] || wall_kind_row(f.kind).mirrors;
  return mirror_closed(cfg.stencil, mirrored);
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides, const EquationInput& equation) {
  InputSources in;
  in.files = {path};
  in.sets = overrides;
  return load_config(in, equation);
}

Config load_config(const InputSources& in, const EquationInput& equation) {
  try {
    return read_config(in, equation);
  } catch (const YAML::Exception& e) {
    // yaml-cpp's own checks (the reads above catch the expected ones): still one located line.
    const std::string file = in.files.empty() ? std::string("(input)") : in.files.front();
    const int line = e.mark.is_null() ? 1 : e.mark.line + 1, column = e.mark.is_null() ? 1 : e.mark.column + 1;
    throw InputError(fmt::format("{}:{}:{}: (yaml): {}", file, line, column, e.msg));
  }
}


}  // namespace cartex::core
