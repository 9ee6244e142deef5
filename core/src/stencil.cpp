#include "cartex/core/stencil.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

namespace cartex::core {

HaloWidths Stencil::reach() const {
  HaloWidths w;
  for (const auto& o : offsets)
    for (int d = 0; d < 3; ++d) {
      w.lo[d] = std::max(w.lo[d], -o[d]);
      w.hi[d] = std::max(w.hi[d], o[d]);
    }
  return w;
}

Stencil mirror_closed(const Stencil& s, const std::array<bool, 3>& closed) {
  Stencil c = s;
  std::set<Offset> have(s.offsets.begin(), s.offsets.end());
  // One dimension after the other: shortening along a later one keeps the earlier ones closed.
  for (int d = 0; d < 3; ++d) {
    if (!closed[d]) continue;
    const std::vector<Offset> points = c.offsets;
    for (const Offset& o : points)
      for (int t = -std::abs(o[d]); t <= std::abs(o[d]); ++t) {
        Offset p = o;
        p[d] = t;
        if (have.insert(p).second) {
          c.offsets.push_back(p);
          c.weights.push_back(0.0);
        }
      }
  }
  return c;
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

// "x", "y", "z" for dimension indices.
std::vector<std::string> reached_names(const std::vector<int>& dims) {
  std::vector<std::string> out;
  for (int d : dims) out.push_back(std::string(1, "xyz"[d]));
  return out;
}

long factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// num / den in lowest terms (den > 0).
Fraction reduced(long num, long den) {
  const long g = std::gcd(num, den);
  return {num / g, den / g};
}

// Star Laplacian of radius r (coefficients `c` from star_coefficients): the centre first, then for
// each dimension d and k = 1..r the offsets -k and +k, weights c_k / h_d^2. The centre adds c_0 / h_d^2
// dimension by dimension, starting from 0, so that radius 1 is bitwise the historical 5pt/7pt.
Stencil star(const std::string& name, const std::vector<Fraction>& c, const GlobalGrid& g) {
  Stencil s;
  s.name = name;
  s.dim = g.dim;
  const int r = static_cast<int>(c.size()) - 1;
  double centre = 0;
  for (int d = 0; d < g.dim; ++d) centre += c[0].value() / (g.spacing(d) * g.spacing(d));
  s.offsets.push_back({0, 0, 0});
  s.weights.push_back(centre);
  for (int d = 0; d < g.dim; ++d)
    for (int k = 1; k <= r; ++k)
      for (int side : {-1, 1}) {
        Offset o{0, 0, 0};
        o[d] = side * k;
        s.offsets.push_back(o);
        s.weights.push_back(c[k].value() / (g.spacing(d) * g.spacing(d)));
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
  if (name == "5pt" || name == "7pt") return star(name, star_coefficients(1), grid);
  if (!isotropic(grid))
    throw std::invalid_argument("stencil " + name +
                                " needs equal grid spacing in every dimension (check grid.n, grid.length, grid.periodic)");
  if (name == "9pt") return box(name, grid, {-20.0, 4.0, 1.0, 0.0}, 6.0);
  return box(name, grid, {-128.0, 14.0, 3.0, 1.0}, 30.0);
}

std::vector<int> star_orders() { return {2, 4, 6, 8}; }

std::vector<Fraction> star_coefficients(int radius) {
  if (radius < 1 || radius > 4)
    throw std::invalid_argument("star_coefficients: radius " + std::to_string(radius) + " is not 1, 2, 3 or 4");
  // c_k = 2 (-1)^(k+1) (r!)^2 / (k^2 (r-k)! (r+k)!), exactly; for r <= 4 every product fits a long.
  const long r2 = factorial(radius) * factorial(radius);
  std::vector<Fraction> c(radius + 1);
  Fraction sum{0, 1};
  for (int k = 1; k <= radius; ++k) {
    const long sign = k % 2 == 1 ? 1 : -1;
    c[k] = reduced(sign * 2 * r2, static_cast<long>(k) * k * factorial(radius - k) * factorial(radius + k));
    sum = reduced(sum.num * c[k].den + c[k].num * sum.den, sum.den * c[k].den);
  }
  c[0] = reduced(-2 * sum.num, sum.den);
  return c;
}

std::string star_stencil_name(int order) { return "star" + std::to_string(order); }

std::vector<std::string> reserved_stencil_names() {
  std::vector<std::string> names = builtin_stencil_names(2);
  for (const auto& n : builtin_stencil_names(3)) names.push_back(n);
  for (int order : star_orders()) names.push_back(star_stencil_name(order));
  return names;
}

Stencil make_star_stencil(int order, const GlobalGrid& grid) {
  const auto orders = star_orders();
  if (std::find(orders.begin(), orders.end(), order) == orders.end())
    throw std::invalid_argument("make_star_stencil: order " + std::to_string(order) + " is not 2, 4, 6 or 8");
  return star(star_stencil_name(order), star_coefficients(order / 2), grid);
}

std::string offset_text(const Offset& o, int dim) {
  return dim == 3 ? fmt::format("[{}, {}, {}]", o[0], o[1], o[2]) : fmt::format("[{}, {}]", o[0], o[1]);
}

void validate_stencil(const Stencil& s, int dim) {
  using Part = InvalidStencil::Part;
  if (s.offsets.empty()) throw InvalidStencil("expected at least one point", Part::kOffset);
  if (s.weights.size() != s.offsets.size())
    throw InvalidStencil(fmt::format("expected one weight per offset, got {} offsets and {} weights", s.offsets.size(),
                                     s.weights.size()),
                         Part::kWeight);
  if (s.dim != dim) throw InvalidStencil(fmt::format("the stencil is {}D but the grid is {}D", s.dim, dim));
  std::map<Offset, int> first;
  for (int q = 0; q < s.size(); ++q) {
    const Offset& o = s.offsets[q];
    if (dim == 2 && o[2] != 0)
      throw InvalidStencil(fmt::format("entry {} {} reaches into z, but the grid is 2D", q + 1, offset_text(o, 3)), Part::kOffset, q);
    auto [it, fresh] = first.emplace(o, q);
    if (!fresh)
      throw InvalidStencil(fmt::format("entry {} repeats the offset {} of entry {} (every offset must appear once)", q + 1,
                                       offset_text(o, dim), it->second + 1),
                           Part::kOffset, q);
  }
  bool any = false;
  for (int q = 0; q < s.size(); ++q) {
    if (!std::isfinite(s.weights[q]))
      throw InvalidStencil(fmt::format("entry {} is not a finite number", q + 1), Part::kWeight, q);
    any = any || s.weights[q] != 0;
  }
  if (!any) throw InvalidStencil("every weight is 0, expected at least one that is not (the operator would do nothing)", Part::kWeight);
}

std::vector<int> stencil_derivatives() { return {0, 1, 2}; }

Stencil make_custom_stencil(const std::string& name, const std::vector<Offset>& offsets, const std::vector<double>& weights,
                            int derivative, const GlobalGrid& grid) {
  const auto derivatives = stencil_derivatives();
  if (std::find(derivatives.begin(), derivatives.end(), derivative) == derivatives.end())
    throw std::invalid_argument(fmt::format("make_custom_stencil: derivative {} is not 0, 1 or 2", derivative));
  Stencil s;
  s.name = name;
  s.dim = grid.dim;
  s.offsets = offsets;
  s.weights = weights;
  validate_stencil(s, grid.dim);
  if (derivative == 0) return s;
  // The spacing of the dimensions the stencil reaches (the first of them; a centre alone: x's).
  std::vector<int> reached;
  for (int d = 0; d < grid.dim; ++d)
    if (std::any_of(offsets.begin(), offsets.end(), [d](const Offset& o) { return o[d] != 0; })) reached.push_back(d);
  const double h = grid.spacing(reached.empty() ? 0 : reached.front());
  for (int d : reached)
    if (std::abs(grid.spacing(d) - h) > 1e-12 * h)
      throw std::invalid_argument(fmt::format(
          "weights for unit spacing are divided by h^{}, which needs equal grid spacing in the dimensions the stencil "
          "reaches ({}; check grid.n, grid.length, grid.periodic); or give the weights for this grid with derivative: 0",
          derivative, fmt::join(reached_names(reached), ", ")));
  for (double& w : s.weights) w = derivative == 2 ? w / (h * h) : w / h;
  return s;
}

}  // namespace cartex::core
