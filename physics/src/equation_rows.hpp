#pragma once
// Internal: the rows of the registry, one source file each (heat.cpp, wave.cpp), listed in equations.cpp.
#include "cartex/physics/equation.hpp"

namespace cartex::physics {

const Equation& heat_equation();
const Equation& wave_equation();

}  // namespace cartex::physics
