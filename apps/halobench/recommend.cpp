// Noise, within one run: the 95% CIs of the two medians, and the per-series medians, which show how
// far a backend's time drifts between series (the closest thing to a second run that a run has).
#include "recommend.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace halobench {

Recommendation recommend(const std::vector<Result>& results) {
  std::vector<const Result*> ranked;
  for (const Result& r : results)
    if (r.wrong_cells == 0 && r.chosen == r.backend) ranked.push_back(&r);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Result* a, const Result* b) { return a->time.median < b->time.median; });
  Recommendation rec;
  if (ranked.empty()) return rec;
  rec.best = ranked[0]->backend;
  if (ranked.size() == 1) return rec;
  const Result& best = *ranked[0];
  const Result& next = *ranked[1];
  rec.runner_up = next.backend;
  rec.margin = best.time.median > 0 ? next.time.median / best.time.median - 1.0 : 0.0;
  rec.cis_overlap = best.time.ci_high >= next.time.ci_low;
  rec.series = static_cast<int>(std::min(best.series_medians.size(), next.series_medians.size()));
  for (int s = 0; s < rec.series; ++s)
    if (best.series_medians[s] < next.series_medians[s]) ++rec.series_won;
  return rec;
}

std::string recommendation_line(const Recommendation& r) {
  if (r.best.empty()) return "recommendation: none (no backend passed its correctness check)";
  const std::string head = fmt::format("recommendation: comm.backend: {}", r.best);
  if (r.runner_up.empty()) return head + " (the only backend timed)";
  const std::string evidence =
      fmt::format("the 95% CIs {}, faster in {} of {} series", r.cis_overlap ? "overlap" : "are apart", r.series_won,
                  r.series);
  return fmt::format("{} ({:.1f}% faster than the runner-up {}; {}: {}{})", head, 100.0 * r.margin,
                     r.runner_up, r.within_noise() ? "within the noise" : "outside the noise", evidence,
                     r.within_noise() ? "; either will do" : "");
}

}  // namespace halobench
