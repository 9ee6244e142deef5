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

// --fields: the CSV columns, the table of one problem (per backend and N: together and one by one,
// their ratio, messages and bytes of each) and one CSV row per (backend, N) timed.
extern const char* const kFieldsCsvHeader;
void print_fields_results(const Problem& p, const Options& o, int procs, const std::vector<FieldsResult>& results);
void write_fields_results(benchstats::CsvWriter& csv, const Problem& p, const Options& o, int procs,
                          const std::vector<FieldsResult>& results);

// Appends one CSV row per backend that was timed.
void write_results(benchstats::CsvWriter& csv, const Problem& p, const Options& o, int procs,
                   const std::vector<Result>& results);

}  // namespace halobench
