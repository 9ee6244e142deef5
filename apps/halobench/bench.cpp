// Every backend gets its own plan and field, built and checked before any timing starts, so the
// random series order mixes only working backends and no plan construction falls inside a series.
#include "bench.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "benchstats/timing.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/halo/backends.hpp"
#include "verify.hpp"

namespace halobench {

namespace {

// --backends, or every row of the registry.
std::vector<std::string> requested(const Options& o) {
  if (!o.backends.empty()) return o.backends;
  std::vector<std::string> all;
  for (const auto& b : cartex::halo::backends()) all.emplace_back(b.name);
  return all;
}

// Why backend `name` cannot run here (halo::refusal), or nullopt (also for names not in the registry).
std::optional<std::string> refused(const std::string& name, const Options& o) {
  const cartex::halo::Backend* row = cartex::halo::find_backend(name);
  return row ? cartex::halo::refusal(*row, cartex::halo::mpi_memory(o.gpu_aware_mpi)) : std::nullopt;
}

}  // namespace

std::vector<std::string> backends_to_run(const Options& o) {
  std::vector<std::string> out;
  if (!refused(kBaseline, o)) out.emplace_back(kBaseline);
  for (const std::string& b : requested(o))
    if (std::find(out.begin(), out.end(), b) == out.end() && !refused(b, o)) out.push_back(b);
  return out;
}

std::vector<std::string> skipped_backends(const Options& o) {
  std::vector<std::string> names, out;
  std::vector<std::string> asked = requested(o);
  asked.insert(asked.begin(), kBaseline);
  for (const std::string& b : asked)
    if (const auto why = refused(b, o); why && std::find(names.begin(), names.end(), b) == names.end()) {
      names.push_back(b);
      out.push_back(b + " (" + *why + ")");
    }
  return out;
}

std::vector<Result> bench_problem(const Problem& p, const Options& o, MPI_Comm comm) {
  int rank = 0;
  cartex::core::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const cartex::halo::HaloGeometry geo(p.decomposition, p.stencil, o.k);
  const cartex::halo::HaloPattern pattern = cartex::halo::make_halo_pattern(geo, rank);
  std::vector<Result> results;
  std::vector<std::unique_ptr<cartex::halo::HaloPlan>> plans;
  std::vector<std::unique_ptr<cartex::core::Field>> fields;
  std::vector<benchstats::Cell> cells;
  std::vector<std::size_t> timed;  // result index of each cell
  for (const std::string& name : backends_to_run(o)) {
    auto plan = cartex::halo::make_halo_plan(name, {pattern, comm, &geo, o.gpu_aware_mpi});
    auto field = std::make_unique<cartex::core::Field>("halobench", pattern.layout);
    Result r;
    r.backend = name;
    r.chosen = plan->backend();
    r.note = plan->note();
    r.wrong_cells = count_wrong_cells(*plan, *field, pattern, p.decomposition.grid(), comm);
    const cartex::halo::HaloStats s = plan->stats();
    long local[3] = {s.messages, s.bytes, s.rounds}, most[3] = {0, 0, 0};
    cartex::core::check_mpi(MPI_Allreduce(local, most, 3, MPI_LONG, MPI_MAX, comm), "MPI_Allreduce");
    r.stats = {most[0], most[1], static_cast<int>(most[2])};
    if (r.wrong_cells == 0) {
      cartex::halo::HaloPlan* pl = plan.get();
      cartex::core::Field* f = field.get();
      cells.push_back({name, [pl, f] { pl->exchange(*f); }, {}});
      timed.push_back(results.size());
    }
    results.push_back(r);
    plans.push_back(std::move(plan));
    fields.push_back(std::move(field));
  }
  const auto sums = benchstats::time_and_summarize(cells, o.method, comm);
  for (std::size_t c = 0; c < cells.size(); ++c) {
    results[timed[c]].time = sums[c];
    results[timed[c]].series_medians = benchstats::series_medians(cells[c].samples, o.method.series);
  }
  const bool have_base = !results.empty() && results.front().backend == kBaseline && results.front().wrong_cells == 0;
  const double base = have_base ? results.front().time.median : 0.0;
  for (Result& r : results) r.ratio = base > 0 && r.wrong_cells == 0 ? r.time.median / base : 0.0;
  return results;
}

namespace {

// The maximum over ranks of each figure.
cartex::halo::HaloStats most(const cartex::halo::HaloStats& s, MPI_Comm comm) {
  long local[3] = {s.messages, s.bytes, s.rounds}, out[3] = {0, 0, 0};
  cartex::core::check_mpi(MPI_Allreduce(local, out, 3, MPI_LONG, MPI_MAX, comm), "MPI_Allreduce");
  return {out[0], out[1], static_cast<int>(out[2])};
}

}  // namespace

std::vector<FieldsResult> bench_fields(const Problem& p, const Options& o, MPI_Comm comm) {
  int rank = 0;
  cartex::core::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const cartex::halo::HaloGeometry geo(p.decomposition, p.stencil, o.k);
  const cartex::halo::HaloPattern pattern = cartex::halo::make_halo_pattern(geo, rank);
  const int most_fields = *std::max_element(o.fields.begin(), o.fields.end());
  std::vector<std::unique_ptr<cartex::core::Field>> storage;
  std::vector<cartex::core::Field*> all;
  for (int q = 0; q < most_fields; ++q) {
    storage.push_back(std::make_unique<cartex::core::Field>("halobench_field", pattern.layout));
    all.push_back(storage.back().get());
  }
  std::vector<FieldsResult> results;
  std::vector<std::unique_ptr<cartex::halo::HaloPlan>> plans;
  std::vector<benchstats::Cell> cells;
  std::vector<std::size_t> timed;  // result index of each pair of cells (together, one by one)
  for (const std::string& name : backends_to_run(o)) {
    const cartex::halo::PlanInputs one_in{pattern, comm, &geo, o.gpu_aware_mpi};
    plans.push_back(cartex::halo::make_halo_plan(name, one_in));
    cartex::halo::HaloPlan* one = plans.back().get();
    const long one_wrong = count_wrong_cells(*one, *all.front(), pattern, p.decomposition.grid(), comm);
    const cartex::halo::HaloStats one_stats = most(one->stats(), comm);
    for (const int n : o.fields) {
      cartex::halo::PlanInputs in = one_in;
      in.fields = n;
      plans.push_back(cartex::halo::make_halo_plan(name, in));
      cartex::halo::HaloPlan* together = plans.back().get();
      // auto picks by timing, plan by plan: where the N-field plan picked another backend than the
      // one-field plan, one by one runs the N-field plan's pick, so that both sides time one backend
      // (the pick is the slowest rank's timing: the same on every rank).
      cartex::halo::HaloPlan* single = one;
      long single_wrong = one_wrong;
      cartex::halo::HaloStats single_stats = one_stats;
      if (together->backend() != one->backend()) {
        plans.push_back(cartex::halo::make_halo_plan(together->backend(), one_in));
        single = plans.back().get();
        single_wrong = count_wrong_cells(*single, *all.front(), pattern, p.decomposition.grid(), comm);
        single_stats = most(single->stats(), comm);
      }
      const std::vector<cartex::core::Field*> set(all.begin(), all.begin() + n);
      FieldsResult r;
      r.backend = name;
      r.chosen = together->backend();
      r.fields = n;
      r.wrong_cells = single_wrong + count_wrong_cells(*together, set, pattern, p.decomposition.grid(), comm);
      r.together = most(together->stats(), comm);
      r.one_by_one = {n * single_stats.messages, n * single_stats.bytes, n * single_stats.rounds};
      if (r.wrong_cells == 0) {
        const std::string label = name + " N=" + std::to_string(n);
        cells.push_back({label + " together", [together, set] { together->exchange(cartex::halo::FieldSet(set)); }, {}});
        cells.push_back({label + " one by one", [single, set] {
                           for (cartex::core::Field* f : set) single->exchange(*f);
                         }, {}});
        timed.push_back(results.size());
      }
      results.push_back(r);
    }
  }
  const auto sums = benchstats::time_and_summarize(cells, o.method, comm);
  for (std::size_t c = 0; c < timed.size(); ++c) {
    FieldsResult& r = results[timed[c]];
    r.together_time = sums[2 * c];
    r.one_by_one_time = sums[2 * c + 1];
    r.ratio = r.one_by_one_time.median > 0 ? r.together_time.median / r.one_by_one_time.median : 0.0;
  }
  return results;
}

}  // namespace halobench
