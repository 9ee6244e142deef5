// Robust statistics of the benchmark (EuroMPI'15 section 7, ICPP'19 Appendix A): Tukey's outlier
// filter, then the median with a distribution-free 95% confidence interval.
#pragma once

#include <vector>

namespace cartbench {

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

// Drops samples outside [Q1 - k*IQR, Q3 + k*IQR] and summarises the rest.
Summary summarize(std::vector<double> samples, double tukey_k);

}  // namespace cartbench
