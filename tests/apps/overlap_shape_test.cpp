// Overlapped steps in both shapes (apps/driver/src/overlap_shape.hpp) give bitwise the fields of
// blocking steps: chunked, and async forced on the host, for heat and wave, k = 1 .. 3, walls and
// periodic, with and without temporal blocking, on several backends and rank counts.
//
// On the host an async launch returns when its work is done, so the interior is computed before the
// exchange moves on. A device may run it any time until the stepper waits for it: DeferredUpdate
// computes it only then (as late as a device may), so a step that reads the interior's cells before
// waiting, or never waits, gives other bits. Together the two runs are the extremes of a device.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/kernels/boundary.hpp"
#include "cartex/kernels/initial.hpp"
#include "mpi_world.hpp"
#include "step_update.hpp"
#include "stepper.hpp"

namespace cartex {
namespace {

// An update whose async launches run only when the stepper waits for them (a device's latest); counts
// the launches in *launches.
class DeferredUpdate final : public kernels::UpdateOperator {
 public:
  DeferredUpdate(std::unique_ptr<kernels::UpdateOperator> op, long* launches) : op_(std::move(op)), launches_(launches) {}
  void apply(const core::State& in, core::State& out) const override { op_->apply(in, out); }
  void apply(const core::State& in, core::State& out, const kernels::CellRegion& cells) const override { op_->apply(in, out, cells); }
  void apply_async(const Kokkos::DefaultExecutionSpace&, const core::State& in, core::State& out,
                   const kernels::CellRegion& cells) const override {
    ASSERT_FALSE(pending_) << "a second launch before the stepper waited for the first";
    pending_ = [this, &in, &out, cells] { op_->apply(in, out, cells); };
    ++*launches_;
  }
  void wait_async(const Kokkos::DefaultExecutionSpace& exec) const override {
    if (pending_) std::exchange(pending_, {})();
    exec.fence();
    Kokkos::fence();  // the deferred work ran on the default instance
  }
  void apply_steps(core::State& a, core::State& b, const kernels::CycleRegions& steps, int first, int last,
                   const kernels::BetweenTiles& between, const kernels::PassWalls* walls,
                   kernels::PeriodicGhosts ghosts) const override {
    op_->apply_steps(a, b, steps, first, last, between, walls, ghosts);
  }
  bool has_blocked_kernel() const override { return op_->has_blocked_kernel(); }
  std::string kernel_name() const override { return op_->kernel_name(); }

 private:
  std::unique_ptr<kernels::UpdateOperator> op_;
  long* launches_;
  mutable std::function<void()> pending_;
};

enum class Mode { kBlocking, kChunked, kAsync, kAsyncDeferred };

const char* name_of(Mode r) {
  switch (r) {
    case Mode::kBlocking: return "blocking";
    case Mode::kChunked: return "chunked";
    case Mode::kAsync: return "async";
    case Mode::kAsyncDeferred: return "async, interior deferred to the wait";
  }
  return "?";
}

struct Case {
  std::string name;
  std::string equation;  // a row of physics' registry
  std::vector<std::string> sets;  // --set overrides of kBase
  int steps;
  app::CycleKind blocking, overlapped;  // the stepper's cycle shape without and with overlap
};

// 12x10x8 cells (a 2D case overrides grid.n), a Gaussian (not an eigenvector of the update).
const std::string kBase = "grid:\n  n: [12, 10, 8]\ninit:\n  type: gaussian\n";

// The host copy of `f`'s block (its own cells: the ghost cells outside the exact halo are read by no
// step, and p2p's whole planes fill them with copies where a packed exchange leaves them as they were).
std::vector<double> host_copy(const core::Field& f) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  const core::FieldLayout& l = f.layout;
  std::vector<double> out;
  for (long z = 0; z < l.box.n[2]; ++z)
    for (long y = 0; y < l.box.n[1]; ++y)
      for (long x = 0; x < l.box.n[0]; ++x) out.push_back(h(z + l.halo.lo[2], y + l.halo.lo[1], x + l.halo.lo[0]));
  return out;
}

// The fields after c.steps steps run as `run`: u, and for wave the previous level too.
std::vector<double> fields_after(const Case& c, Mode run) {
  core::InputSources in;
  in.files = {"in.yaml"};
  const bool wave = c.equation == "wave";
  in.texts["in.yaml"] = kBase + (wave ? "physics: {speed: 1.0, cfl: 0.5}\n" : "physics: {alpha: 1.0, cfl: 0.5}\n");
  in.sets = c.sets;
  in.sets.push_back("run.steps=" + std::to_string(c.steps));
  in.sets.push_back(std::string("comm.overlap=") + (run == Mode::kBlocking ? "false" : "true"));
  const app::Setup s = app::make_setup("overlap_shape_test", physics::find_equation(c.equation), in, MPI_COMM_WORLD);
  std::unique_ptr<kernels::UpdateOperator> update = app::make_update(s);
  long launches = 0;
  if (run == Mode::kAsyncDeferred) update = std::make_unique<DeferredUpdate>(std::move(update), &launches);
  const bool overlap = run != Mode::kBlocking;
  app::Stepper stepper(s, s.k, *s.geometry, s.pattern, overlap, overlap, std::move(update));
  EXPECT_EQ(stepper.overlap_shape(), app::default_overlap_shape());
  const app::CycleKind want = run == Mode::kBlocking ? c.blocking : c.overlapped;
  EXPECT_EQ(stepper.shape().kind, want) << c.name << ": " << app::cycle_kind_name(stepper.shape().kind) << ", expected "
                                        << app::cycle_kind_name(want);
  stepper.set_overlap_shape(run == Mode::kAsync || run == Mode::kAsyncDeferred ? app::OverlapShape::kAsync : app::OverlapShape::kChunked);
  core::State u({"u"}, s.pattern.layout), next({"next"}, s.pattern.layout);
  // Every wall ghost cell of the start (the refreshed walls' too: blocking and overlapped steps read
  // them at different times).
  const kernels::Boundary walls = kernels::make_boundary(s.cfg, physics::exact_solution(*s.equation, s.cfg));
  for (core::State* f : {&u, &next}) {
    kernels::fill_initial((*f)[0], s.cfg.grid, s.cfg.init);  // wave: next holds the previous level
    walls.fill(*f, 0);
  }
  for (int step = 1; step <= c.steps; ++step) {
    stepper.step(u, next);
    std::swap(u, next);
  }
  EXPECT_TRUE(stepper.settled());
  if (run == Mode::kAsyncDeferred) EXPECT_GT(launches, 0) << c.name << ": no overlapped step ran the interior asynchronously";
  Kokkos::fence();
  std::vector<double> out = host_copy(u[0]);
  if (wave) {
    const std::vector<double> previous = host_copy(next[0]);
    out.insert(out.end(), previous.begin(), previous.end());
  }
  return out;
}

// Values (over all ranks) that differ bitwise between `a` and `b`.
int differing(const std::vector<double>& a, const std::vector<double>& b) {
  int n = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; n == 0 && i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], sizeof(double)) != 0;
  return test::world_sum(n);
}

TEST(OverlapShape, ChunksOnHostSpacesOneLaunchOnDevices) {
  const std::string space = Kokkos::DefaultExecutionSpace::name();
  if (space == "Serial" || space == "OpenMP" || space == "Threads") EXPECT_EQ(app::default_overlap_shape(), app::OverlapShape::kChunked);
  if (space == "Cuda" || space == "HIP" || space == "SYCL") EXPECT_EQ(app::default_overlap_shape(), app::OverlapShape::kAsync);
}

TEST(OverlapShape, BothShapesGiveTheBlockingStepsBits) {
  using K = app::CycleKind;
  const std::vector<Case> cases = {
      {"heat 7pt walls in x, k 1, p2p", "heat",
       {"grid.periodic=[false,true,true]", "boundary.x=[0.5,0.25]", "comm.backend=p2p", "halo.steps_per_exchange=1",
        "halo.temporal_blocking=off"},
       5, K::kExchangeSweep, K::kOverlapRegions},
      {"heat 27pt periodic, k 2, cart_combining", "heat",
       {"grid.periodic=true", "grid.length=[1.2,1.0,0.8]", "stencil=27pt", "comm.backend=cart_combining", "halo.steps_per_exchange=2",
        "halo.temporal_blocking=off"},
       5, K::kExchangeRegions, K::kOverlapRegions},
      {"heat 2D 9pt, k 1, mpi_neighbor_alltoallw", "heat",
       {"grid.n=[17,15]", "grid.length=[1.7,1.5]", "stencil=9pt", "comm.backend=mpi_neighbor_alltoallw", "halo.steps_per_exchange=1",
        "halo.temporal_blocking=off"},
       4, K::kExchangeSweep, K::kOverlapRegions},
      {"heat 7pt, k 3, tiles, cart_forwarding (overlapped step, then a blocked pass)", "heat",
       {"comm.backend=cart_forwarding", "halo.steps_per_exchange=3", "halo.temporal_blocking={tile_y: 2}"}, 7, K::kExchangeBlocked,
       K::kOverlapBlocked},
      {"heat 7pt, k 3, tiles, p2p (overlapped passes)", "heat",
       {"comm.backend=p2p", "halo.steps_per_exchange=3", "halo.temporal_blocking={tile_y: 2}"}, 7, K::kExchangeBlocked,
       K::kOverlapPass},
      {"heat 7pt Neumann wall in y, k 3, tiles, p2p (refreshed walls: no overlapped pass)", "heat",
       {"grid.periodic=[true,false,true]", "boundary.y={low: {neumann: 0.5}, high: {dirichlet: 0}}", "comm.backend=p2p",
        "halo.steps_per_exchange=3", "halo.temporal_blocking={tile_y: 3}"},
       7, K::kExchangeBlocked, K::kOverlapBlocked},
      {"wave star order 4 periodic, k 2, p2p_persistent", "wave",
       {"grid.periodic=true", "stencil={type: star, order: 4}", "comm.backend=p2p_persistent", "halo.steps_per_exchange=2",
        "halo.temporal_blocking=off"},
       5, K::kExchangeRegions, K::kOverlapRegions},
  };
  for (const Case& c : cases) {
    const std::vector<double> blocking = fields_after(c, Mode::kBlocking);
    for (const Mode run : {Mode::kChunked, Mode::kAsync, Mode::kAsyncDeferred})
      EXPECT_EQ(differing(fields_after(c, run), blocking), 0)
          << c.name << ", " << name_of(run) << ": values differ from blocking steps on " << test::world_size() << " rank(s)";
  }
}

}  // namespace
}  // namespace cartex
