#include "cartex/core/ordered_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "cartex/core/error.hpp"

namespace cartex::core {

OrderedSearch::OrderedSearch(std::vector<long> candidates, std::size_t start)
    : candidates_(std::move(candidates)), seconds_(candidates_.size(), -1.0), times_(candidates_.size(), 0), best_(start) {
  require(!candidates_.empty() && start < candidates_.size(), "OrderedSearch: no candidates, or a start outside them");
}

std::size_t OrderedSearch::next_index() const {
  if (seconds_[best_] < 0) return best_;
  if (recheck_) return *recheck_;
  // Upwards first, then downwards: the first unmeasured neighbour of the fastest so far, passing over
  // skipped candidates (their cost ruled them out, not their speed).
  const auto skipped = [&](std::size_t i) { return std::isinf(seconds_[i]); };
  std::size_t up = best_ + 1;
  while (up < candidates_.size() && skipped(up)) ++up;
  if (up < candidates_.size() && seconds_[up] < 0) return up;
  std::size_t down = best_;
  while (down > 0 && skipped(down - 1)) --down;
  if (down > 0 && seconds_[down - 1] < 0) return down - 1;
  return candidates_.size();
}

bool OrderedSearch::done() const { return stopped_ || next_index() == candidates_.size(); }

long OrderedSearch::next() const {
  require(!done(), "OrderedSearch::next: the search is done");
  return candidates_[next_index()];
}

void OrderedSearch::record(double seconds) {
  const std::size_t i = next_index();
  require(!stopped_ && i < candidates_.size(), "OrderedSearch::record: the search is done");
  measured_.push_back({candidates_[i], seconds});
  if (recheck_) {
    // The candidate the walk was leaving, measured again: its faster time counts.
    recheck_.reset();
    ++times_[i];
    seconds_[i] = std::min(seconds_[i], seconds);
    if (seconds_[i] < seconds_[best_]) best_ = i;
    return;
  }
  seconds_[i] = seconds;
  ++times_[i];
  if (seconds < seconds_[best_]) {
    if (times_[best_] == 1 && !std::isinf(seconds_[best_])) recheck_ = best_;
    best_ = i;
  }
}

std::optional<double> OrderedSearch::seconds_of(long candidate) const {
  for (std::size_t i = 0; i < candidates_.size(); ++i)
    if (candidates_[i] == candidate && seconds_[i] >= 0 && !std::isinf(seconds_[i])) return seconds_[i];
  return std::nullopt;
}

std::string OrderedSearch::describe(const std::vector<std::string>& names, const char* unit, double scale) const {
  std::string text;
  const auto name = [&](long c) {
    for (std::size_t i = 0; i < candidates_.size(); ++i)
      if (candidates_[i] == c && i < names.size()) return names[i];
    return std::to_string(c);
  };
  for (const Measurement& m : measured_) {
    const std::string time = std::isinf(m.seconds) ? std::string("skipped") : fmt::format("{:.3g}", scale * m.seconds);
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", name(m.candidate), time);
  }
  if (measured_.empty()) return fmt::format("nothing measured -> {}", name(best()));
  return fmt::format("{} {} -> {}", text, unit, name(best()));
}

void OrderedSearch::skip() { record(std::numeric_limits<double>::infinity()); }

}  // namespace cartex::core
