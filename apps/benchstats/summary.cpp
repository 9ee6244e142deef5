// Tukey filter, median and the order-statistic 95% CI of the median; medians per series.
#include "benchstats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace benchstats {
namespace {

double quantile(const std::vector<double>& sorted, double q, Quantile rule) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  if (rule == Quantile::lower) return sorted[lo];
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace

Summary summarize(std::vector<double> samples, double tukey_k, Quantile rule) {
  Summary s;
  s.samples = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const double q1 = quantile(samples, 0.25, rule), q3 = quantile(samples, 0.75, rule);
  const double lo = q1 - tukey_k * (q3 - q1), hi = q3 + tukey_k * (q3 - q1);
  std::vector<double> kept;
  for (double x : samples)
    if (x >= lo && x <= hi) kept.push_back(x);
  s.kept = static_cast<int>(kept.size());
  const double n = static_cast<double>(kept.size());
  s.median = quantile(kept, 0.5, rule);
  const double half = 1.96 * std::sqrt(n) / 2.0;
  const auto rank = [&](double r) { return kept[static_cast<std::size_t>(std::clamp(r, 0.0, n - 1.0))]; };
  s.ci_low = rank(std::floor(n / 2.0 - half));
  s.ci_high = rank(std::ceil(n / 2.0 + half));
  s.mean = std::accumulate(kept.begin(), kept.end(), 0.0) / n;
  s.min = kept.front();
  return s;
}

std::vector<double> series_medians(const std::vector<double>& samples, int series, Quantile rule) {
  std::vector<double> out;
  if (series < 1 || samples.empty() || samples.size() % static_cast<std::size_t>(series) != 0) return out;
  const std::size_t part = samples.size() / static_cast<std::size_t>(series);
  for (std::size_t s = 0; s < samples.size(); s += part) {
    std::vector<double> one(samples.begin() + static_cast<long>(s), samples.begin() + static_cast<long>(s + part));
    std::sort(one.begin(), one.end());
    out.push_back(quantile(one, 0.5, rule));
  }
  return out;
}

}  // namespace benchstats
