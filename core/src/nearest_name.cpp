#include "nearest_name.hpp"

#include <algorithm>
#include <cctype>

namespace cartex::core::detail {

namespace {

// Optimal string alignment distance of `a` and `b`, case-insensitive.
size_t edit_distance(const std::string& a, const std::string& b) {
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  // d[i][j]: distance of the first i letters of a and the first j of b.
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& names) {
  const size_t limit = std::min<size_t>(2, word.size() / 2);
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (const auto& name : names) {
    if (std::max(word.size(), name.size()) - std::min(word.size(), name.size()) > limit) continue;  // too far
    const size_t distance = edit_distance(word, name);
    if (distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace cartex::core::detail
