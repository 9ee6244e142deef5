// Grid lengths equal the cell counts (spacing 1 in every dimension), which the isotropic builtins
// (9pt, 27pt) require whatever the process grid's shape.
#include "problem.hpp"

#include <stdexcept>

namespace halobench {
namespace {

// star:R (axes up to R) or box:R ([-R, R]^dim); weights do not matter to an exchange.
cartex::core::Stencil shaped(const std::string& name, int dim) {
  const auto colon = name.find(':');
  const std::string shape = name.substr(0, colon);
  int r = 0;
  try {
    r = std::stoi(name.substr(colon + 1));
  } catch (const std::exception&) {
    r = 0;
  }
  if ((shape != "star" && shape != "box") || r < 1)
    throw std::invalid_argument("stencil \"" + name + "\": expected 5pt, 9pt, 7pt, 27pt, star:R or box:R with R >= 1");
  cartex::core::Stencil s;
  s.name = name;
  s.dim = dim;
  const int rz = dim == 3 ? r : 0;
  for (int z = -rz; z <= rz; ++z)
    for (int y = -r; y <= r; ++y)
      for (int x = -r; x <= r; ++x)
        if (shape == "box" || (x != 0) + (y != 0) + (z != 0) <= 1) {
          s.offsets.push_back({x, y, z});
          s.weights.push_back(0.0);
        }
  return s;
}

}  // namespace

Problem make_problem(const std::string& name, int dim, long block, bool periodic, std::array<int, 3> dims, int nranks) {
  const bool builtin = name.find(':') == std::string::npos;
  if (builtin) dim = (name == "5pt" || name == "9pt") ? 2 : 3;
  cartex::core::GlobalGrid g;
  g.dim = dim;
  // A cube of nranks blocks per dimension lets ProcessGrid::create pick dims as for any cube.
  for (int d = 0; d < 3; ++d) {
    g.n[d] = d < dim ? block * nranks : 1;
    g.periodic[d] = d < dim ? periodic : true;
  }
  const cartex::core::ProcessGrid pg = cartex::core::ProcessGrid::create(g, dims, nranks);
  for (int d = 0; d < dim; ++d) {
    g.n[d] = block * pg.dims[d];
    g.length[d] = static_cast<double>(periodic ? g.n[d] : g.n[d] + 1);
  }
  cartex::core::Stencil s = builtin ? cartex::core::make_builtin_stencil(name, g) : shaped(name, dim);
  return Problem{std::move(s), cartex::core::Decomposition(g, pg), block};
}

std::string grid_name(const cartex::core::Decomposition& d) {
  std::string s;
  for (int k = 0; k < d.grid().dim; ++k) s += (k ? "x" : "") + std::to_string(d.procs().dims[k]);
  return s;
}

}  // namespace halobench
