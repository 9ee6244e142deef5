// The registry of equations (equation.hpp): one row per equation, defined in its own source file.
#include <fmt/format.h>

#include <algorithm>

#include "cartex/core/error.hpp"
#include "equation_rows.hpp"

namespace cartex::physics {

const std::vector<const Equation*>& equations() {
  static const std::vector<const Equation*> rows = {&heat_equation(), &wave_equation()};
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

core::EquationInput loader_input(const Equation& eq) {
  core::EquationInput in{eq.name, eq.keys, {}, eq.dt_max, eq.limit_text};
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
