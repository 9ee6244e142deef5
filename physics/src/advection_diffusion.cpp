// Advection-diffusion u_t + v . grad u = alpha lap u, explicit Euler: its row of the registry
// (equation.hpp). The operator is ONE stencil (advection_stencil.hpp): alpha times the run's
// Laplacian minus v_d times the first derivative D_d (physics.advection), stepped by LinearUpdate with
// coeff dt; its stability limit comes from that stencil's complex Fourier symbol, and the sine mode's
// exact solution is 2^dim plane waves times G^n (euler_sine_mode.hpp) when every dimension is periodic.
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "cartex/core/stability.hpp"
#include "cartex/kernels/initial.hpp"
#include "cartex/kernels/linear_update.hpp"
#include "cartex/physics/advection_stencil.hpp"
#include "cartex/physics/euler_sine_mode.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex::physics {

namespace {

// physics.advection as given: {scheme: upwind | central, order: N}; "" when it is good, else what is wrong.
std::string read_advection(const std::string& mapping, AdvectionInput& out) {
  const YAML::Node n = YAML::Load(mapping);
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (key != "scheme" && key != "order") return fmt::format("unknown key \"{}\" (expected scheme and order)", key);
  }
  if (!n["scheme"] || !n["order"]) return "expected {scheme: upwind or central, order: N}";
  const std::string scheme = n["scheme"].IsScalar() ? n["scheme"].as<std::string>() : "";
  if (scheme == "upwind")
    out.scheme = core::FirstDerivativeScheme::kUpwind;
  else if (scheme == "central")
    out.scheme = core::FirstDerivativeScheme::kCentral;
  else
    return n["scheme"].IsScalar() ? fmt::format("expected scheme upwind or central, got \"{}\"", scheme)
                                  : "expected scheme upwind or central, got a list or mapping";
  const auto orders = advection_orders(out.scheme);
  long order = 0;
  // Decimal digits only, like every integer of the input (yaml-cpp alone reads 010 as 8 and 0x2 as 2).
  const std::string digits = n["order"].IsScalar() ? n["order"].Scalar() : "";
  const bool decimal = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!decimal || !YAML::convert<long>::decode(n["order"], order) ||
      std::find(orders.begin(), orders.end(), order) == orders.end())
    return fmt::format("scheme {} has orders {}, got {}", scheme, fmt::join(orders, ", "),
                       n["order"].IsScalar() ? n["order"].Scalar() : "a list or mapping");
  out.order = static_cast<int>(order);
  return "";
}

AdvectionInput advection_of(const core::PhysicsValues& v) {
  AdvectionInput in;
  read_advection(v.at("advection").mapping, in);  // checked when read
  return in;
}

std::array<double, 3> velocity_of(const core::PhysicsValues& v) {
  std::array<double, 3> vel{0, 0, 0};
  const auto& n = v.at("velocity").numbers;
  std::copy(n.begin(), n.end(), vel.begin());
  return vel;
}

// alpha Lap - v . D on this grid.
core::Stencil operator_stencil(const core::Stencil& laplacian, const core::PhysicsValues& v, const core::GlobalGrid& grid) {
  return make_advection_diffusion_stencil(laplacian, v.at("alpha").numbers.front(), velocity_of(v), advection_of(v), grid);
}

// The stability limit of Euler for the operator stencil, from its complex symbol (core/stability.hpp);
// throws core::NoStableTimeStep (central differences or upwind of order >= 2 without enough diffusion).
core::TimeStepLimit dt_max(const core::Stencil& op, const core::PhysicsValues&) {
  return core::time_step_limit(op, core::Integrator::kExplicitEuler, 1.0);
}

std::unique_ptr<kernels::UpdateOperator> make_update(const core::Config& cfg, const core::FieldLayout& layout, const CoefficientFields&) {
  return std::make_unique<kernels::LinearUpdate>(cfg.stencil, layout, core::Integrator::kExplicitEuler, cfg.dt);
}

// 2^dim plane waves times G^n (euler_sine_mode.hpp), the solution on the infinite lattice: exact when
// every dimension is periodic or lies between walls that follow it (dirichlet: exact).
bool exact_modes(const core::Config& cfg, long step, kernels::ModeSum& out) {
  if (cfg.init.type != "sine") return false;
  for (int d = 0; d < cfg.grid.dim; ++d)
    if (!cfg.grid.periodic[d] && !(core::wall_kind_row(cfg.boundary[d][0].kind).needs_exact &&
                                   core::wall_kind_row(cfg.boundary[d][1].kind).needs_exact)) return false;
  out = euler_sine_mode(cfg.stencil, cfg.dt, cfg.init.amplitude, kernels::sine_wave_numbers(cfg.grid, cfg.init), cfg.grid, step);
  return true;
}

std::string check_advection(const core::PhysicsValue& v, int) {
  AdvectionInput in;
  return read_advection(v.mapping, in);
}

}  // namespace

const Equation& advection_diffusion_equation() {
  using Kind = core::PhysicsKey::Kind;
  static const Equation row = [] {
    Equation e;
    e.name = "advection-diffusion";
    e.app = "advect3d";
    e.title = "advection-diffusion equation (explicit Euler)";
    e.pde = "u_t + v . grad u = alpha L(u)";
    e.keys = {{"alpha", Kind::kNonNegativeNumber, "number ≥ 0", "required", {}, "diffusivity α of `u_t + v·∇u = α·L(u)`",
               "a number >= 0", "diffusivity", 0, {}},
              {"velocity", Kind::kNumberList, "list of 2 or 3 finite numbers, one per dimension", "required", {},
               "flow velocity v of `u_t + v·∇u = α·L(u)`", "a list of numbers, one per dimension", "flow velocity", 0, {}},
              {"advection", Kind::kMapping, "mapping `{scheme: upwind or central, order: N}`", "required", {},
               "the first derivative of the advection term: `upwind` of order 1, 2, 3 or 4 (biased against the flow), `central` "
               "of order 2 or 4 ([stencils.md](stencils.md#first-derivatives-and-the-advectiondiffusion-operator))",
               "a mapping {scheme: upwind or central, order: N}", "first-derivative scheme", 0, check_advection}};
    e.dt_max = dt_max;
    e.limit_text = "explicit Euler, from the operator stencil's Fourier symbol";
    e.make_update = make_update;
    e.operator_stencil = operator_stencil;
    e.exact_modes = exact_modes;
    return e;
  }();
  return row;
}

}  // namespace cartex::physics
