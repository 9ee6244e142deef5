#include "cartex/core/stability.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace cartex::core {

namespace {

// Rounding of the symbol's sums, relative to sum |w| (>= |lambda| everywhere): a real part or a
// growth below it counts as 0.
constexpr double kNoise = 1e-12;
// A limit below this many times 1 / max |lambda| is rounding, not a time step: no dt is stable.
constexpr double kNoLimit = 1e-9;
// Lattice points per dimension over [-pi, pi] (odd: 0 and +-pi are points), for the small-theta
// lattices, their scales, how many best samples are refined, and the refinement's levels.
constexpr int kLattice2D = 129, kLattice3D = 33, kSmallLattice = 17;
constexpr std::array<double, 2> kSmallScales{1e-2, 1e-3};
// Modes whose every phase |o . theta| is below this are left to the theta -> 0 limit from the moments
// (there the real part of lambda - s is of the order of the rounding of sum w).
constexpr double kSmallestTheta = 1e-4;
constexpr int kRefined = 8, kLevels = 30;

const double kPi = std::acos(-1.0);

using Theta = std::array<double, 3>;
using Objective = std::function<double(const Theta&)>;  // minimised

double weight_magnitude(const Stencil& s) {
  double m = 0;
  for (double w : s.weights) m += std::abs(w);
  return m;
}

// One sampled mode: the objective's value there and the lattice spacing around it.
struct Sample {
  double value;
  Theta theta;
  double spacing;
};

// Calls f(theta) for the n^dim lattice over [-half, half]^dim (z fixed at 0 in 2D).
void for_each_lattice_point(int dim, int n, double half, const std::function<void(const Theta&)>& f) {
  const int nz = dim == 3 ? n : 1;
  auto at = [&](int i) { return n == 1 ? 0.0 : -half + 2.0 * half * i / (n - 1); };
  for (int c = 0; c < nz; ++c)
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) f({at(a), at(b), dim == 3 ? at(c) : 0.0});
}

// Keeps the `keep` samples with the smallest values (sorted), the starts of the refinement.
void keep_best(std::vector<Sample>& best, const Sample& s, std::size_t keep) {
  if (!std::isfinite(s.value)) return;
  if (best.size() == keep && s.value >= best.back().value) return;
  best.insert(std::upper_bound(best.begin(), best.end(), s, [](const Sample& a, const Sample& b) { return a.value < b.value; }),
              s);
  if (best.size() > keep) best.pop_back();
}

// Nested lattices of 5 points per dimension around the sample, each half as wide as the one before,
// moving to the best point found: a local minimum of the objective within about the spacing.
Sample refine(int dim, Sample s, const Objective& f) {
  double half = s.spacing;
  for (int level = 0; level < kLevels; ++level) {
    const Theta centre = s.theta;
    for_each_lattice_point(dim, 5, half, [&](const Theta& d) {
      const Theta t{centre[0] + d[0], centre[1] + d[1], centre[2] + d[2]};
      const double v = f(t);
      if (v < s.value) s = {v, t, s.spacing};
    });
    half /= 2;
  }
  return s;
}

// The smallest value of f over the whole lattice, (with `small_theta`) the small-theta lattices, and
// the refinement around the best samples of both.
Sample minimise(int dim, const Objective& f, bool small_theta) {
  std::vector<Sample> best;
  const int n = dim == 3 ? kLattice3D : kLattice2D;
  for_each_lattice_point(dim, n, kPi, [&](const Theta& t) { keep_best(best, {f(t), t, 2 * kPi / (n - 1)}, kRefined); });
  if (small_theta)
    for (double scale : kSmallScales)
      for_each_lattice_point(dim, kSmallLattice, scale * kPi,
                             [&](const Theta& t) { keep_best(best, {f(t), t, 2 * scale * kPi / (kSmallLattice - 1)}, kRefined); });
  Sample out{std::numeric_limits<double>::infinity(), {0, 0, 0}, 0};
  for (const Sample& s : best) {
    const Sample r = refine(dim, s, f);
    if (r.value < out.value) out = r;
  }
  return out;
}

// "[t0, t1(, t2)]" in 4 digits, rounding off what is only rounding (|t| < 1e-12 prints as 0).
std::string theta_text(const Theta& theta, int dim) {
  Theta t = theta;
  for (double& x : t) x = std::abs(x) < 1e-12 ? 0.0 : x;
  return dim == 3 ? fmt::format("[{:.4g}, {:.4g}, {:.4g}]", t[0], t[1], t[2]) : fmt::format("[{:.4g}, {:.4g}]", t[0], t[1]);
}

// "re + im i" in 6 digits; a part below 1e-12 |lambda| (rounding) prints as 0.
std::string lambda_text(std::complex<double> l) {
  const double tiny = 1e-12 * std::abs(l);
  l = {std::abs(l.real()) < tiny ? 0.0 : l.real(), std::abs(l.imag()) < tiny ? 0.0 : l.imag()};
  return fmt::format("{:.6g} {} {:.6g}i", l.real(), l.imag() < 0 ? '-' : '+', std::abs(l.imag()));
}

// The theta -> 0 limit of the Euler per-mode limit where lambda(0) = s (0 / 0 there). By Taylor,
// Re lambda = s - theta' M theta / 2 + O(theta^4) and Im lambda = b . theta + O(theta^3), M = sum w o o',
// b = sum w o; so along a unit direction e the limit is e' M e / ((b.e)^2 - s e' M e) (no limit where
// the denominator is <= 0). Returns the smallest over e (a lattice of directions, refined) and its e.
Sample small_theta_limit(const Stencil& s, double growth) {
  double m[3][3] = {}, b[3] = {};
  for (int q = 0; q < s.size(); ++q)
    for (int i = 0; i < 3; ++i) {
      b[i] += s.weights[q] * s.offsets[q][i];
      for (int j = 0; j < 3; ++j) m[i][j] += s.weights[q] * s.offsets[q][i] * s.offsets[q][j];
    }
  // p = (azimuth, polar, -): e = (sin p1 cos p0, sin p1 sin p0, cos p1) in 3D, (cos p0, sin p0, 0) in 2D.
  const int dim = s.dim;
  auto direction = [dim](const Theta& p) {
    return dim == 3 ? Theta{std::sin(p[1]) * std::cos(p[0]), std::sin(p[1]) * std::sin(p[0]), std::cos(p[1])}
                    : Theta{std::cos(p[0]), std::sin(p[0]), 0.0};
  };
  const double bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
  const auto along = [&](const Theta& e) {
    double mee = 0, be = 0;
    for (int i = 0; i < 3; ++i) {
      be += b[i] * e[i];
      for (int j = 0; j < 3; ++j) mee += e[i] * m[i][j] * e[j];
    }
    const double den = be * be - growth * mee;  // below 1e-12 |b|^2: e is (to rounding) across b, no limit
    return den > 1e-12 * bb ? std::max(0.0, mee) / den : std::numeric_limits<double>::infinity();
  };
  Sample out = minimise(dim == 3 ? 2 : 1, [&](const Theta& p) { return along(direction(p)); }, false);
  out.theta = direction(out.theta);
  // Ties (e.g. a limit of 0 along every direction not across b) name the plainest direction: b's own.
  if (bb > 0) {
    const double norm = std::sqrt(bb);
    const Theta e{b[0] / norm, b[1] / norm, b[2] / norm};
    if (along(e) <= out.value) out = {along(e), e, 0};
  }
  return out;
}

// max_q |o_q . theta|: how far the mode is from theta = 0 as the stencil sees it.
double largest_phase(const Stencil& s, const Theta& t) {
  double p = 0;
  for (const auto& o : s.offsets) p = std::max(p, std::abs(o[0] * t[0] + o[1] * t[1] + o[2] * t[2]));
  return p;
}

// rho = max -lambda of a mirror-symmetric symbol <= 0: Stencil::spectral_radius(), whose lattice
// holds every corner of [0, pi]^dim, where the Laplacian families have their extreme (their dt keeps
// its bits), unless the refined scan finds a mode beyond it: a custom stencil whose extreme lies
// between the lattice's points, where the lattice alone would give a dt above the limit.
double symmetric_rho(const Stencil& s) {
  const double lattice = s.spectral_radius();
  const Sample decay = minimise(s.dim, [&](const Theta& t) { return fourier_symbol(s, t).real(); }, false);
  return -decay.value > lattice * (1 + 1e-12) ? -decay.value : lattice;
}

// Leapfrog: the symbol must be real and <= 0 (within rounding); rho = max -lambda.
TimeStepLimit leapfrog_limit(const Stencil& s, double scale, double noise) {
  const Sample imag = minimise(s.dim, [&](const Theta& t) { return -std::abs(fourier_symbol(s, t).imag()); }, false);
  const Sample grow = minimise(s.dim, [&](const Theta& t) { return -fourier_symbol(s, t).real(); }, false);
  for (const Sample* bad : {&imag, &grow})
    if (-bad->value > noise)
      throw NoStableTimeStep(fmt::format(
          "leapfrog is stable only for a real symbol lambda <= 0 (w(o) == w(-o) for every offset o, no growing mode, e.g. a "
          "Laplacian), but the mode theta = {} has lambda = {}: make the stencil symmetric, or solve a first-order equation",
          theta_text(bad->theta, s.dim), lambda_text(fourier_symbol(s, bad->theta))));
  TimeStepLimit out;
  out.rho = s.is_mirror_symmetric() ? symmetric_rho(s) : 0.0;
  out.from_spectral_radius = out.rho > 0;
  if (!out.from_spectral_radius) {
    const Sample decay = minimise(s.dim, [&](const Theta& t) { return fourier_symbol(s, t).real(); }, false);
    out.rho = -decay.value;
    out.theta = decay.theta;
    out.lambda = fourier_symbol(s, decay.theta);
  }
  out.dt_max = 2.0 / (std::sqrt(scale) * std::sqrt(out.rho));
  return out;
}

// Explicit Euler: the formula for a mirror-symmetric symbol <= 0, else the scan of the header.
TimeStepLimit euler_limit(const Stencil& s, double scale, double noise) {
  TimeStepLimit out;
  const Sample grow = minimise(s.dim, [&](const Theta& t) { return -fourier_symbol(s, t).real(); }, false);
  const double growth = -grow.value > noise ? -grow.value : 0.0;
  if (growth == 0 && s.is_mirror_symmetric()) {
    out.rho = symmetric_rho(s);
    if (out.rho > 0) {
      out.from_spectral_radius = true;
      out.dt_max = 2.0 / (scale * out.rho);
      return out;
    }
  }
  out.growth = growth;
  // lambda(0) = s: the per-mode limit is 0 / 0 at theta = 0 and its limit comes from the moments.
  Sample limit0{std::numeric_limits<double>::infinity(), {0, 0, 0}, 0};
  if (std::abs(fourier_symbol(s, {0, 0, 0}).real() - growth) <= noise) {
    limit0 = small_theta_limit(s, growth);
    if (limit0.value * weight_magnitude(s) < kNoLimit)
      throw NoStableTimeStep(fmt::format(
          "no time step is stable with explicit Euler: along theta = t * {} the per-mode limit tends to 0 as t -> 0 (the "
          "second moment of the weights, sum w (o.e)^2, is 0 there while the first, sum w o.e, is not: Re lambda vanishes "
          "faster than t^2, Im lambda only as t), as for a central first derivative or an upwind-biased one of order 2 "
          "and higher; add diffusion (a second-derivative part) or use a first-order upwind first derivative",
          theta_text(limit0.theta, s.dim)));
  }
  const Objective mode_limit = [&](const Theta& t) {
    if (largest_phase(s, t) < kSmallestTheta) return std::numeric_limits<double>::infinity();
    const std::complex<double> l = fourier_symbol(s, t);
    const double excess = std::norm(l) - growth * growth;
    if (std::abs(l) <= growth + noise || excess <= 0) return std::numeric_limits<double>::infinity();
    return 2.0 * std::max(0.0, growth - l.real()) / excess;
  };
  Sample m = minimise(s.dim, mode_limit, true);
  out.theta = m.theta;
  out.lambda = fourier_symbol(s, m.theta);
  if (limit0.value < m.value) {  // the theta -> 0 limit, not attained by any mode
    m.value = limit0.value;
    out.towards_zero = true;
    out.theta = limit0.theta;
    out.lambda = 0;
  }
  if (!std::isfinite(m.value)) {
    out.dt_max = std::numeric_limits<double>::infinity();
    return out;
  }
  if (m.value * weight_magnitude(s) < kNoLimit)
    throw NoStableTimeStep(fmt::format(
        "no time step is stable with explicit Euler: the mode theta = {} has lambda = {}{}, and u + dt*L(u) amplifies it "
        "beyond the equation's own growth for every dt > 0 (a purely imaginary symbol, as of a central first derivative, "
        "does this); add diffusion (a second-derivative part) or use a first-order upwind first derivative",
        theta_text(m.theta, s.dim), lambda_text(out.lambda),
        growth > 0 ? fmt::format(" (growth of the equation s = {:.6g})", growth) : std::string()));
  out.dt_max = m.value / scale;
  return out;
}

}  // namespace

std::string limiting_mode_text(const TimeStepLimit& limit, int dim) {
  if (limit.from_spectral_radius) return fmt::format("rho = {:.6g}", limit.rho);
  if (limit.towards_zero) return fmt::format("the limit as theta = t * {} tends to 0", theta_text(limit.theta, dim));
  return fmt::format("the mode theta = {} with lambda = {}", theta_text(limit.theta, dim), lambda_text(limit.lambda));
}

const char* integrator_name(Integrator integrator) {
  return integrator == Integrator::kExplicitEuler ? "explicit Euler" : "leapfrog";
}

std::complex<double> fourier_symbol(const Stencil& s, const std::array<double, 3>& theta) {
  double sum = 0, versine = 0, imag = 0;
  for (int q = 0; q < s.size(); ++q) {
    const auto& o = s.offsets[q];
    const double phase = o[0] * theta[0] + o[1] * theta[1] + o[2] * theta[2];
    const double half_sine = std::sin(0.5 * phase);
    sum += s.weights[q];
    versine += s.weights[q] * half_sine * half_sine;
    imag += s.weights[q] * std::sin(phase);
  }
  return {sum - 2.0 * versine, imag};
}

TimeStepLimit time_step_limit(const Stencil& s, Integrator integrator, double scale) {
  if (!(scale > 0) || !std::isfinite(scale))
    throw std::invalid_argument(fmt::format("time_step_limit: scale {} is not a positive number", scale));
  // Finite weights so large that |lambda|^2 (or a * |lambda|) leaves the doubles: no limit can be computed.
  const double magnitude = weight_magnitude(s);
  if (!std::isfinite(magnitude * magnitude) || !std::isfinite(scale * magnitude))
    throw NoStableTimeStep(fmt::format("the operator's weights are too large to compute a limit with doubles (their magnitudes "
                                       "sum to {:.3g}): expected values this grid spacing can step",
                                       magnitude));
  const double noise = kNoise * weight_magnitude(s);
  return integrator == Integrator::kLeapfrog ? leapfrog_limit(s, scale, noise) : euler_limit(s, scale, noise);
}

}  // namespace cartex::core
