// The registry of equations (equation.hpp): one row per equation, each defined in its own source file.
//
//   name         app        keys               fields  integrator  dt_max (rho: spectral radius of L)  initial    exact (sine mode)
//   -----------  ---------  -----------------  ------  ----------  ----------------------------------  ---------  --------------------
//   heat         heat3d     alpha              u       Euler       2 / (alpha * rho)                   sine,      A g^n
//                                                                                                      gaussian
//   wave         wave3d     speed              u       leapfrog    2 / (speed * sqrt(rho))             sine,      A cos(n w dt)
//                                                                                                      gaussian
//   advection-   advect3d   alpha, velocity,   u       Euler       from the complex symbol of          sine,      2^dim plane waves
//   diffusion               advection                              alpha Lap - v.D (operator_stencil)  gaussian   times G^n (periodic)
//   gray-scott   grayscott  Du, Dv, feed,      u, v    Euler       2 / (max(Du, Dv) * rho)             gaussian   none
//                3d         kill                                                                       (a seed)
//
//   heat: u_t = alpha L(u), g = 1 + dt alpha lambda;  wave: u_tt = c^2 L(u), cos(w dt) = 1 + dt^2 c^2 lambda / 2
//   advection-diffusion: u_t + v . grad u = alpha Lap(u), G = 1 + dt lambda(theta), lambda complex
//   (lambda: L's eigenvalue at the mode, the stencil's symbol there)
//   gray-scott: u_t = Du L(u) - u v^2 + F (1 - u), v_t = Dv L(v) + u v^2 - (F + k) v (gray_scott.cpp)
#include <fmt/format.h>

#include <algorithm>

#include "cartex/core/error.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex::physics {

// The rows, one source file each.
const Equation& heat_equation();
const Equation& wave_equation();
const Equation& advection_diffusion_equation();
const Equation& gray_scott_equation();

const std::vector<const Equation*>& equations() {
  static const std::vector<const Equation*> rows = {&heat_equation(), &wave_equation(), &advection_diffusion_equation(),
                                                     &gray_scott_equation()};
  return rows;
}

std::vector<std::string> equation_names() {
  std::vector<std::string> names;
  for (const Equation* eq : equations()) names.emplace_back(eq->name);
  return names;
}

const Equation& find_equation(const std::string& name) {
  for (const Equation* eq : equations())
    if (name == eq->name) return *eq;
  throw core::Error(fmt::format("unknown equation \"{}\" (expected one of: {})", name, fmt::join(equation_names(), ", ")));
}

std::vector<std::string> state_names(const Equation& eq) {
  std::vector<std::string> names = eq.fields;
  if (eq.integrator == core::Integrator::kLeapfrog)
    for (const auto& f : eq.fields) names.push_back(f + "_previous");
  return names;
}

core::EquationInput loader_input(const Equation& eq) {
  core::EquationInput in{eq.name, eq.fields, eq.keys, {}, eq.dt_max, eq.limit_text, core::integrator_name(eq.integrator), {}};
  if (eq.operator_stencil) in.operator_stencil = eq.operator_stencil;
  const auto own = [&eq](const std::string& key) {
    return std::any_of(eq.keys.begin(), eq.keys.end(), [&key](const core::PhysicsKey& k) { return k.name == key; });
  };
  for (const Equation* other : equations())
    for (const auto& k : other->keys)
      if (!own(k.name) && std::find(in.foreign_keys.begin(), in.foreign_keys.end(), k.name) == in.foreign_keys.end())
        in.foreign_keys.push_back(k.name);
  return in;
}

}  // namespace cartex::physics
