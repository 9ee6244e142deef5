#pragma once
// The loader's view of the registry's equations (physics/equation.hpp) for configuration tests, and
// load_config for the heat equation (what the tests read unless they say otherwise).
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/physics/equation.hpp"

namespace cartex::test {

inline const core::EquationInput& equation_input(const std::string& name) {
  static const core::EquationInput heat = physics::loader_input(physics::find_equation("heat"));
  static const core::EquationInput wave = physics::loader_input(physics::find_equation("wave"));
  return name == "wave" ? wave : heat;
}

inline core::Config heat_config(const core::InputSources& in) { return core::load_config(in, equation_input("heat")); }

inline core::Config heat_config(const std::string& path, const std::vector<std::string>& overrides) {
  return core::load_config(path, overrides, equation_input("heat"));
}

}  // namespace cartex::test
