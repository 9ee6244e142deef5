#include "auto_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "zero_copy_blocks.hpp"

namespace cartex::detail {

namespace {

// The chosen plan, reporting why it was chosen.
class ChosenPlan final : public HaloPlan {
 public:
  ChosenPlan(std::unique_ptr<HaloPlan> plan, std::string note) : plan_(std::move(plan)), note_(std::move(note)) {}
  void start(Field& f) override { plan_->start(f); }
  void finish(Field& f) override { plan_->finish(f); }
  HaloStats stats() const override { return plan_->stats(); }
  std::string backend() const override { return plan_->backend(); }
  std::string note() const override { return note_; }

 private:
  std::unique_ptr<HaloPlan> plan_;
  std::string note_;
};

constexpr int kWarmup = 2;
constexpr int kTimed = 7;

}  // namespace

std::unique_ptr<HaloPlan> make_auto_plan(const HaloGeometry& geo, const HaloPattern& pattern, MPI_Comm comm) {
  using Space = Kokkos::DefaultExecutionSpace::memory_space;
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible;
  Field scratch("cartex::auto_scratch", pattern.layout);
  std::unique_ptr<HaloPlan> best;
  double best_time = 0;
  std::string table;
  for (const auto& name : halo_backends()) {
    if (name == "auto" || (!host && backend_is_zero_copy(name))) continue;
    auto plan = make_halo_plan(name, geo, pattern, comm);
    std::vector<double> times;
    for (int r = 0; r < kWarmup + kTimed; ++r) {
      MPI_Barrier(comm);
      const double t0 = MPI_Wtime();
      plan->exchange(scratch);
      if (r >= kWarmup) times.push_back(MPI_Wtime() - t0);
    }
    std::nth_element(times.begin(), times.begin() + kTimed / 2, times.end());
    double median = times[kTimed / 2], slowest = 0;
    MPI_Allreduce(&median, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    table += fmt::format("{}{} {:.1f} us", table.empty() ? "" : ", ", name, slowest * 1e6);
    if (!best || slowest < best_time) {
      best_time = slowest;
      best = std::move(plan);
    }
  }
  const std::string note = fmt::format("auto picked {} (median exchange time of the slowest rank over {} exchanges: {})",
                                       best->backend(), kTimed, table);
  return std::make_unique<ChosenPlan>(std::move(best), note);
}

}  // namespace cartex::detail
