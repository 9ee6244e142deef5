// heat3d: the explicit heat equation u_t = alpha * L(u) on a 2D or 3D grid (docs/input.md).
#include "cartex/app/driver.hpp"

int main(int argc, char** argv) { return cartex::app::app_main("heat3d", cartex::physics::find_equation("heat"), argc, argv); }
