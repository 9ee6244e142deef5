// advect3d: advection-diffusion u_t + v . grad u = alpha * L(u) by explicit Euler on a 2D or 3D grid,
// upwind or central first derivatives joined with the Laplacian in one stencil (docs/stencils.md).
#include "cartex/app/driver.hpp"

int main(int argc, char** argv) {
  return cartex::app::app_main("advect3d", cartex::physics::find_equation("advection-diffusion"), argc, argv);
}
