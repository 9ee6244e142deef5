// wave3d: the wave equation u_tt = c^2 * L(u) by leapfrog on a 2D or 3D grid, made for high-order
// stencils (inputs/wave3d.yaml: 8th-order star). u starts at rest: u^(-1) = u^0 + dt^2 c^2 / 2 L(u^0).
#include "cartex/app/driver.hpp"

int main(int argc, char** argv) { return cartex::app::app_main("wave3d", cartex::physics::find_equation("wave"), argc, argv); }
