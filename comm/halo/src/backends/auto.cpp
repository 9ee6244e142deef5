// Backend "auto": builds every other backend this build and comm.gpu_aware_mpi allow (refusal(): the
// note names the others and why), times a few exchanges of each on a scratch field, takes the slowest
// rank's median per candidate (so every rank picks the same) and keeps the fastest. With N fields
// (PlanInputs::fields) it builds and times every candidate for N fields, on N scratch fields.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "cartex/halo/backends.hpp"
#include "mpi_check.hpp"

namespace cartex::halo {

namespace {

// The chosen plan, reporting why it was chosen.
class ChosenPlan final : public HaloPlan {
 public:
  ChosenPlan(std::unique_ptr<HaloPlan> plan, std::string note) : plan_(std::move(plan)), note_(std::move(note)) {}
  void start(const FieldSet& f) override { plan_->start(f); }
  void progress() override { plan_->progress(); }
  bool done() const override { return plan_->done(); }
  void finish(const FieldSet& f) override { plan_->finish(f); }
  int fields() const override { return plan_->fields(); }
  bool self_complete_at_start() const override { return plan_->self_complete_at_start(); }
  bool block_copied_at_start() const override { return plan_->block_copied_at_start(); }
  void copy_block_at_start(bool copy) override { plan_->copy_block_at_start(copy); }
  int fillable_ghost_dims() const override { return plan_->fillable_ghost_dims(); }
  void expect_filled_ghosts(int dims) override { plan_->expect_filled_ghosts(dims); }
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

std::unique_ptr<HaloPlan> make_auto(const PlanInputs& in) {
  const MpiMemory memory = in.memory();
  std::vector<core::Field> scratch;
  std::vector<core::Field*> pointers;
  scratch.reserve(static_cast<size_t>(in.fields));
  for (int q = 0; q < in.fields; ++q) {
    scratch.emplace_back("cartex::auto_scratch", in.pattern.layout);
    pointers.push_back(&scratch.back());
  }
  const FieldSet set(pointers);
  std::unique_ptr<HaloPlan> best;
  double best_time = 0;
  std::string table, skipped;
  for (const Backend& b : backends()) {
    if (std::strcmp(b.name, "auto") == 0) continue;
    if (const auto why = refusal(b, memory)) {
      skipped += fmt::format("; skipped {} ({})", b.name, *why);
      continue;
    }
    auto plan = b.make(in);
    std::vector<double> times;
    for (int r = 0; r < kWarmup + kTimed; ++r) {
      check_mpi(MPI_Barrier(in.comm), "MPI_Barrier");
      const double t0 = MPI_Wtime();
      plan->exchange(set);
      if (r >= kWarmup) times.push_back(MPI_Wtime() - t0);
    }
    std::nth_element(times.begin(), times.begin() + kTimed / 2, times.end());
    double median = times[kTimed / 2], slowest = 0;
    check_mpi(MPI_Allreduce(&median, &slowest, 1, MPI_DOUBLE, MPI_MAX, in.comm), "MPI_Allreduce");
    table += fmt::format("{}{} {:.1f} us", table.empty() ? "" : ", ", b.name, slowest * 1e6);
    if (!best || slowest < best_time) {
      best_time = slowest;
      best = std::move(plan);
    }
  }
  const std::string note = fmt::format("auto picked {} (median exchange time of the slowest rank over {} exchanges: {}){}",
                                       best->backend(), kTimed, table, skipped);
  return std::make_unique<ChosenPlan>(std::move(best), note);
}

}  // namespace cartex::halo
