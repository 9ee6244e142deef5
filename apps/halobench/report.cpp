// Times in microseconds; messages, bytes and rounds per exchange are the maximum over ranks, which
// is every rank's value on a periodic grid of equal blocks.
#include "report.hpp"

#include <fmt/core.h>

#include <string>

#include "recommend.hpp"

namespace halobench {

const char* const kCsvHeader =
    "label,stencil,dim,k,periodic,procs,grid,block,backend,chosen,messages,bytes,rounds,samples,kept,"
    "median_us,ci_low_us,ci_high_us,mean_us,min_us,ratio_to_mpi_neighbor_alltoallw";

void print_results(const Problem& p, const Options& o, int procs, const std::vector<Result>& results) {
  const auto& g = p.decomposition.grid();
  fmt::print("\n{} k={} block {}^{} on {} processes ({}{}), {} series x {} reps, Tukey k={}\n", p.stencil.name, o.k,
             p.block, g.dim, procs, grid_name(p.decomposition), o.mesh ? " mesh" : " torus", o.method.series,
             o.method.reps, o.method.tukey);
  fmt::print("{:<27} {:>11} {:>23} {:>10} {:>5} {:>9} {:>6}\n", "backend", "median[us]", "95% CI [us]", "/alltoallw",
             "msgs", "bytes", "rounds");
  for (const Result& r : results) {
    const std::string name = r.backend == r.chosen ? r.backend : r.backend + "=" + r.chosen;
    if (r.wrong_cells > 0) {
      fmt::print("{:<27} FAILED: {} wrong cells after the exchange, not timed\n", name, r.wrong_cells);
      continue;
    }
    fmt::print("{:<27} {:>11.2f} [{:>9.2f}, {:>9.2f}] {:>10.3f} {:>5} {:>9} {:>6}\n", name, r.time.median * 1e6,
               r.time.ci_low * 1e6, r.time.ci_high * 1e6, r.ratio, r.stats.messages, r.stats.bytes, r.stats.rounds);
  }
  for (const Result& r : results)
    if (!r.note.empty()) fmt::print("  {}\n", r.note);
  fmt::print("{}\n", recommendation_line(recommend(results)));
}

void write_results(benchstats::CsvWriter& csv, const Problem& p, const Options& o, int procs,
                   const std::vector<Result>& results) {
  const auto& g = p.decomposition.grid();
  for (const Result& r : results) {
    if (r.wrong_cells > 0) continue;
    const auto& t = r.time;
    csv.row({o.label, p.stencil.name, std::to_string(g.dim), std::to_string(o.k), o.mesh ? "0" : "1",
             std::to_string(procs), grid_name(p.decomposition), std::to_string(p.block), r.backend, r.chosen,
             std::to_string(r.stats.messages), std::to_string(r.stats.bytes), std::to_string(r.stats.rounds),
             std::to_string(t.samples), std::to_string(t.kept), benchstats::fixed(t.median * 1e6),
             benchstats::fixed(t.ci_low * 1e6), benchstats::fixed(t.ci_high * 1e6), benchstats::fixed(t.mean * 1e6),
             benchstats::fixed(t.min * 1e6), benchstats::fixed(r.ratio)});
  }
}

const char* const kFieldsCsvHeader =
    "label,stencil,dim,k,periodic,procs,grid,block,backend,chosen,fields,messages,bytes,rounds,one_by_one_messages,"
    "one_by_one_bytes,together_median_us,together_ci_low_us,together_ci_high_us,one_by_one_median_us,"
    "one_by_one_ci_low_us,one_by_one_ci_high_us,ratio_together_to_one_by_one";

void print_fields_results(const Problem& p, const Options& o, int procs, const std::vector<FieldsResult>& results) {
  const auto& g = p.decomposition.grid();
  fmt::print("\n{} k={} block {}^{} on {} processes ({}{}), N fields together vs one by one, {} series x {} reps\n",
             p.stencil.name, o.k, p.block, g.dim, procs, grid_name(p.decomposition), o.mesh ? " mesh" : " torus",
             o.method.series, o.method.reps);
  fmt::print("{:<27} {:>2} {:>13} {:>13} {:>9} {:>11} {:>11} {:>20}\n", "backend", "N", "together[us]", "1-by-1[us]",
             "ratio", "msgs tog.", "msgs 1-by-1", "bytes tog. / 1-by-1");
  for (const FieldsResult& r : results) {
    const std::string name = r.backend == r.chosen ? r.backend : r.backend + "=" + r.chosen;
    if (r.wrong_cells > 0) {
      fmt::print("{:<27} {:>2} FAILED: {} wrong cells after the exchange, not timed\n", name, r.fields, r.wrong_cells);
      continue;
    }
    fmt::print("{:<27} {:>2} {:>13.2f} {:>13.2f} {:>9.3f} {:>11} {:>11} {:>9} / {:>9}\n", name, r.fields,
               r.together_time.median * 1e6, r.one_by_one_time.median * 1e6, r.ratio, r.together.messages,
               r.one_by_one.messages, r.together.bytes, r.one_by_one.bytes);
  }
}

void write_fields_results(benchstats::CsvWriter& csv, const Problem& p, const Options& o, int procs,
                          const std::vector<FieldsResult>& results) {
  const auto& g = p.decomposition.grid();
  for (const FieldsResult& r : results) {
    if (r.wrong_cells > 0) continue;
    const auto& t = r.together_time;
    const auto& s = r.one_by_one_time;
    csv.row({o.label, p.stencil.name, std::to_string(g.dim), std::to_string(o.k), o.mesh ? "0" : "1",
             std::to_string(procs), grid_name(p.decomposition), std::to_string(p.block), r.backend, r.chosen,
             std::to_string(r.fields), std::to_string(r.together.messages), std::to_string(r.together.bytes),
             std::to_string(r.together.rounds), std::to_string(r.one_by_one.messages),
             std::to_string(r.one_by_one.bytes), benchstats::fixed(t.median * 1e6), benchstats::fixed(t.ci_low * 1e6),
             benchstats::fixed(t.ci_high * 1e6), benchstats::fixed(s.median * 1e6), benchstats::fixed(s.ci_low * 1e6),
             benchstats::fixed(s.ci_high * 1e6), benchstats::fixed(r.ratio)});
  }
}

}  // namespace halobench
