#include "cartex/physics/advection_stencil.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace cartex::physics {

const char* advection_scheme_name(AdvectionScheme s) { return s == AdvectionScheme::kUpwind ? "upwind" : "central"; }

std::vector<int> advection_orders(AdvectionScheme s) {
  if (s == AdvectionScheme::kUpwind) return {1, 2, 3, 4};
  return {2, 4};
}

FirstDerivative first_derivative_coefficients(const std::vector<int>& offsets) {
  const int n = static_cast<int>(offsets.size());
  if (n < 2 || n > 6) throw std::invalid_argument("first_derivative_coefficients: expected 2 to 6 offsets");
  FirstDerivative D;
  // L_j(x) = N_j(x) / D_j with N_j(x) = prod_{m != j} (x - o_m), D_j = prod_{m != j} (o_j - o_m);
  // the weight is N_j'(0) / D_j = sum_{l != j} prod_{m != j, l} (-o_m) / D_j, all in integers.
  for (int j = 0; j < n; ++j) {
    long num = 0, den = 1;
    for (int m = 0; m < n; ++m)
      if (m != j) {
        if (offsets[m] == offsets[j]) throw std::invalid_argument("first_derivative_coefficients: an offset appears twice");
        den *= offsets[j] - offsets[m];
      }
    for (int l = 0; l < n; ++l) {
      if (l == j) continue;
      long term = 1;
      for (int m = 0; m < n; ++m)
        if (m != j && m != l) term *= -offsets[m];
      num += term;
    }
    if (num == 0) continue;
    if (den < 0) num = -num, den = -den;
    const long g = std::gcd(num, den);
    D.offsets.push_back(offsets[j]);
    D.weights.push_back({num / g, den / g});
  }
  return D;
}

FirstDerivative first_derivative(const AdvectionInput& in, int flow_sign) {
  const auto orders = advection_orders(in.scheme);
  if (std::find(orders.begin(), orders.end(), in.order) == orders.end())
    throw std::invalid_argument(fmt::format("advection scheme {} has no order {} (it has {})", advection_scheme_name(in.scheme),
                                            in.order, fmt::join(orders, ", ")));
  std::vector<int> offsets;
  if (in.scheme == AdvectionScheme::kCentral) {
    for (int k = -in.order / 2; k <= in.order / 2; ++k) offsets.push_back(k);
    return first_derivative_coefficients(offsets);  // drops the centre (weight 0)
  }
  const int upstream = in.order / 2 + 1, downstream = (in.order - 1) / 2;
  for (int k = -upstream; k <= downstream; ++k) offsets.push_back(k);
  FirstDerivative D = first_derivative_coefficients(offsets);
  if (flow_sign < 0) {
    std::reverse(D.offsets.begin(), D.offsets.end());
    std::reverse(D.weights.begin(), D.weights.end());
    for (int& o : D.offsets) o = -o;
    for (auto& w : D.weights) w.num = -w.num;
  }
  return D;
}

core::Stencil make_advection_diffusion_stencil(const core::Stencil& laplacian, double alpha, const std::array<double, 3>& velocity,
                                               const AdvectionInput& in, const core::GlobalGrid& grid) {
  core::Stencil s;
  s.name = fmt::format("{}+{}{}", laplacian.name, advection_scheme_name(in.scheme), in.order);
  s.dim = grid.dim;
  s.offsets = laplacian.offsets;
  for (double w : laplacian.weights) s.weights.push_back(alpha * w);
  for (int d = 0; d < grid.dim; ++d) {
    const double v = velocity[d];
    if (v == 0) continue;
    const FirstDerivative D = first_derivative(in, v > 0 ? 1 : -1);
    const double h = grid.spacing(d);
    for (size_t j = 0; j < D.offsets.size(); ++j) {
      core::Offset o{0, 0, 0};
      o[d] = D.offsets[j];
      const double a = -(v * D.weights[j].value()) / h;
      auto it = std::find(s.offsets.begin(), s.offsets.end(), o);
      if (it == s.offsets.end()) {
        s.offsets.push_back(o);
        s.weights.push_back(a);
      } else {
        s.weights[it - s.offsets.begin()] += a;
      }
    }
  }
  return s;
}

}  // namespace cartex::physics
