// Robust statistics of benchmark samples (EuroMPI'15 section 7, ICPP'19 Appendix A): Tukey's outlier
// filter, then the median with a distribution-free 95% confidence interval.
#pragma once

#include <vector>

namespace benchstats {

// How a quantile that falls between two order statistics is taken. cartbench and halobench
// interpolate; graphbench has always taken the lower one, and keeps doing so for comparable numbers.
enum class Quantile { interpolated, lower };

// Summary of one cell's samples after filtering.
struct Summary {
  int samples = 0;
  int kept = 0;
  double median = 0.0;
  double ci_low = 0.0;
  double ci_high = 0.0;
  double mean = 0.0;
  double min = 0.0;
};

// Drops samples outside [Q1 - k*IQR, Q3 + k*IQR] and summarises the rest; the CI is the pair of
// order statistics at ranks n/2 -+ 1.96 sqrt(n)/2.
Summary summarize(std::vector<double> samples, double tukey_k, Quantile rule = Quantile::interpolated);

// The median of each of `series` equal consecutive parts of `samples` (time_cells appends a cell's
// samples series by series), unfiltered: how much a cell's time moves within one run. Empty when
// the samples do not split evenly.
std::vector<double> series_medians(const std::vector<double>& samples, int series,
                                   Quantile rule = Quantile::interpolated);

}  // namespace benchstats
