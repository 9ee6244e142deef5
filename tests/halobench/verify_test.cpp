// halobench's correctness gate: a plan that leaves the halo alone, or that overwrites the block,
// must be caught (so it can never post a time), and a real backend must pass.
#include <gtest/gtest.h>
#include <mpi.h>

#include "cartex/core/decomposition.hpp"
#include "cartex/halo/backends.hpp"
#include "verify.hpp"

namespace cartex {
namespace {

using halo::HaloPlan;
using halo::HaloStats;

// A broken backend: `mode` 0 does nothing, 1 zeroes the whole view.
class BrokenPlan final : public HaloPlan {
 public:
  explicit BrokenPlan(int mode) : mode_(mode) {}
  void start(const halo::FieldSet&) override {}
  bool done() const override { return true; }
  void finish(const halo::FieldSet& fs) override {
    core::Field& f = fs[0];
    if (mode_ == 1) Kokkos::deep_copy(f.view, 0.0);
  }
  HaloStats stats() const override { return {}; }
  std::string backend() const override { return "broken"; }

 private:
  int mode_;
};

// A 27pt problem of 4^3 blocks stacked along z, one per rank.
struct Problem {
  core::GlobalGrid grid;
  core::Decomposition decomp;
  core::Stencil stencil;
  halo::HaloPattern pattern;
};

// Builds this rank's problem.
Problem make_problem() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  core::GlobalGrid g;
  g.n = {4, 4, 4L * size};
  g.length = {4.0, 4.0, 4.0 * size};
  const core::Decomposition d(g, core::ProcessGrid::create(g, {1, 1, 0}, size));
  const core::Stencil s = core::make_builtin_stencil("27pt", g);
  return {g, d, s, halo::make_halo_pattern(halo::HaloGeometry(d, s, 1), rank)};
}

// Exact-halo cells with an owner, over all ranks.
long halo_cells(const halo::HaloPattern& p) {
  long local = 0, total = 0;
  for (const auto& r : p.recvs()) local += static_cast<long>(r.cells->size());
  MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

TEST(HalobenchVerify, PlanThatDoesNothingFailsOnEveryHaloCell) {
  const Problem s = make_problem();
  core::Field f("f", s.pattern.layout);
  BrokenPlan plan(0);
  const long wrong = halobench::count_wrong_cells(plan, f, s.pattern, s.grid, MPI_COMM_WORLD);
  EXPECT_GT(wrong, 0);
  EXPECT_EQ(wrong, halo_cells(s.pattern));
}

TEST(HalobenchVerify, PlanThatOverwritesTheBlockFails) {
  const Problem s = make_problem();
  core::Field f("f", s.pattern.layout);
  BrokenPlan plan(1);
  EXPECT_GE(halobench::count_wrong_cells(plan, f, s.pattern, s.grid, MPI_COMM_WORLD), 4L * 4 * 4);
}

TEST(HalobenchVerify, EveryRealBackendPasses) {
  const Problem s = make_problem();
  const halo::HaloGeometry geo(s.decomp, s.stencil, 1);
  for (const halo::Backend& b : halo::backends()) {
    if (!halo::runs_here(b)) continue;
    core::Field f("f", s.pattern.layout);
    auto plan = halo::make_halo_plan(b.name, {s.pattern, MPI_COMM_WORLD, &geo});
    EXPECT_EQ(halobench::count_wrong_cells(*plan, f, s.pattern, s.grid, MPI_COMM_WORLD), 0) << b.name;
  }
}

}  // namespace
}  // namespace cartex
