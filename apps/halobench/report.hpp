// halobench output: a table per problem on stdout and one CSV row per backend.
#pragma once

#include <vector>

#include "bench.hpp"
#include "benchstats/csv.hpp"

namespace halobench {

// The CSV columns (scripts/plot_halobench.py and tests/halobench read them by name).
extern const char* const kCsvHeader;

// Prints the table of one problem: median, 95% CI, ratio to the baseline, messages/bytes/rounds, then
// the recommendation (recommend.hpp).
void print_results(const Problem& p, const Options& o, int procs, const std::vector<Result>& results);

// Appends one CSV row per backend that was timed.
void write_results(benchstats::CsvWriter& csv, const Problem& p, const Options& o, int procs,
                   const std::vector<Result>& results);

}  // namespace halobench
