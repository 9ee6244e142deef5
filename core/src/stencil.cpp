#include "cartex/core/stencil.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace cartex {

HaloWidths Stencil::reach() const {
  HaloWidths w;
  for (const auto& o : offsets)
    for (int d = 0; d < 3; ++d) {
      w.lo[d] = std::max(w.lo[d], -o[d]);
      w.hi[d] = std::max(w.hi[d], o[d]);
    }
  return w;
}

bool Stencil::has_diagonals() const {
  for (const auto& o : offsets) {
    int nonzero = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
    if (nonzero > 1) return true;
  }
  return false;
}

bool Stencil::is_mirror_symmetric() const {
  std::map<Offset, double> w;
  for (int q = 0; q < size(); ++q) w[offsets[q]] += weights[q];
  for (const auto& [o, v] : w)
    for (int d = 0; d < 3; ++d) {
      Offset m = o;
      m[d] = -m[d];
      auto it = w.find(m);
      if (it == w.end() || it->second != v) return false;
    }
  return true;
}

double Stencil::symbol(const std::array<double, 3>& theta) const {
  double s = 0;
  for (int q = 0; q < size(); ++q) {
    double c = weights[q];
    for (int d = 0; d < 3; ++d) c *= std::cos(theta[d] * offsets[q][d]);
    s += c;
  }
  return s;
}

double Stencil::spectral_radius() const {
  // Sample [0, pi]^dim on a 33-point lattice per dimension; the lattice contains every corner, where
  // the builtin stencils have their extreme eigenvalue.
  const int samples = 33;
  const int sz = dim == 3 ? samples : 1;
  const double pi = std::acos(-1.0);
  double rho = 0;
  for (int a = 0; a < samples; ++a)
    for (int b = 0; b < samples; ++b)
      for (int c = 0; c < sz; ++c) {
        std::array<double, 3> theta{pi * a / (samples - 1), pi * b / (samples - 1), dim == 3 ? pi * c / (samples - 1) : 0.0};
        rho = std::max(rho, -symbol(theta));
      }
  return rho;
}

std::vector<std::string> builtin_stencil_names(int dim) {
  if (dim == 2) return {"5pt", "9pt"};
  return {"7pt", "27pt"};
}

namespace {

bool isotropic(const GlobalGrid& g) {
  const double h0 = g.spacing(0);
  for (int d = 1; d < g.dim; ++d)
    if (std::abs(g.spacing(d) - h0) > 1e-12 * h0) return false;
  return true;
}

// Second-order star Laplacian: the centre first, then -x, +x, -y, +y, (-z, +z).
Stencil star(const std::string& name, const GlobalGrid& g) {
  Stencil s;
  s.name = name;
  s.dim = g.dim;
  double centre = 0;
  for (int d = 0; d < g.dim; ++d) centre -= 2.0 / (g.spacing(d) * g.spacing(d));
  s.offsets.push_back({0, 0, 0});
  s.weights.push_back(centre);
  for (int d = 0; d < g.dim; ++d)
    for (int side : {-1, 1}) {
      Offset o{0, 0, 0};
      o[d] = side;
      s.offsets.push_back(o);
      s.weights.push_back(1.0 / (g.spacing(d) * g.spacing(d)));
    }
  return s;
}

// Compact box Laplacian with weights by the number of non-zero offset components (0 = centre).
Stencil box(const std::string& name, const GlobalGrid& g, const std::array<double, 4>& by_nonzeros, double scale) {
  Stencil s;
  s.name = name;
  s.dim = g.dim;
  const double h = g.spacing(0);
  const int zr = g.dim == 3 ? 1 : 0;
  for (int dz = -zr; dz <= zr; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int nz = (dx != 0) + (dy != 0) + (dz != 0);
        s.offsets.push_back({dx, dy, dz});
        s.weights.push_back(by_nonzeros[nz] / (scale * h * h));
      }
  return s;
}

}  // namespace

Stencil make_builtin_stencil(const std::string& name, const GlobalGrid& grid) {
  auto names = builtin_stencil_names(grid.dim);
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown stencil \"" + name + "\" for a " + std::to_string(grid.dim) +
                                "D grid (expected one of: " + list + ")");
  }
  if (name == "5pt" || name == "7pt") return star(name, grid);
  if (!isotropic(grid))
    throw std::invalid_argument("stencil " + name + " needs equal grid spacing in every dimension (check grid.n, grid.length, grid.periodic)");
  if (name == "9pt") return box(name, grid, {-20.0, 4.0, 1.0, 0.0}, 6.0);
  return box(name, grid, {-128.0, 14.0, 3.0, 1.0}, 30.0);
}

}  // namespace cartex
