// Summary of benchmark samples: Tukey's fences, then the median with its distribution-free 95%
// confidence interval (order statistics n/2 -+ 1.96 sqrt(n)/2), as in cartbench's method.
#pragma once

#include <vector>

namespace graphbench {

// Median and 95% CI of the samples kept by the filter.
struct Summary {
  int kept = 0;
  double median = 0.0, ci_low = 0.0, ci_high = 0.0;
};

// Drops samples outside [Q1 - k IQR, Q3 + k IQR] and summarises the rest.
Summary summarize(std::vector<double> samples, double tukey_k);

}  // namespace graphbench
