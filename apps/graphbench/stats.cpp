// Tukey filter and median CI on sorted samples (nearest-rank quartiles).
#include "stats.hpp"

#include <algorithm>
#include <cmath>

namespace graphbench {

Summary summarize(std::vector<double> s, double tukey_k) {
  Summary out;
  if (s.empty()) return out;
  std::sort(s.begin(), s.end());
  const auto at = [](const std::vector<double>& v, double q) { return v[static_cast<std::size_t>(q * (v.size() - 1))]; };
  const double q1 = at(s, 0.25), q3 = at(s, 0.75), iqr = q3 - q1;
  std::vector<double> kept;
  for (double x : s)
    if (x >= q1 - tukey_k * iqr && x <= q3 + tukey_k * iqr) kept.push_back(x);
  const double n = static_cast<double>(kept.size()), half = 1.96 * std::sqrt(n) / 2.0;
  const auto rank = [&](double r) { return kept[static_cast<std::size_t>(std::clamp(r, 0.0, n - 1.0))]; };
  out.kept = static_cast<int>(kept.size());
  out.median = at(kept, 0.5);
  out.ci_low = rank(std::floor(n / 2.0 - half));
  out.ci_high = rank(std::ceil(n / 2.0 + half));
  return out;
}

}  // namespace graphbench
