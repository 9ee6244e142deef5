// Neighborhood state: schedule caches, algorithm/execution choice, blocking runs and plans.
#include "state.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "cartex/cart/error.hpp"

namespace cartex::cart::detail {
namespace {

std::size_t schedule_index(Collective c, bool combining) {
  return (c == Collective::alltoall ? 0 : 2) + (combining ? 1 : 0);
}

// Time of one execution as the median of a few runs after warm-up, agreed as the slowest
// process's median; the median keeps one descheduled run from deciding.
template <class Run>
double time_runs(MPI_Comm comm, Run&& run) {
  constexpr int kWarmup = 2;
  constexpr int kReps = 7;
  for (int w = 0; w < kWarmup; ++w) run();
  std::vector<double> times;
  for (int r = 0; r < kReps; ++r) {
    check_mpi(MPI_Barrier(comm), "MPI_Barrier");
    const double t0 = MPI_Wtime();
    run();
    times.push_back(MPI_Wtime() - t0);
  }
  std::nth_element(times.begin(), times.begin() + kReps / 2, times.end());
  double slowest = 0.0;
  check_mpi(MPI_Allreduce(&times[kReps / 2], &slowest, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return slowest;
}

}  // namespace

State::State(MPI_Comm cart, Topology topology, Offsets offsets, Options options)
    : topology_(std::move(topology)), offsets_(std::move(offsets)), options_(options) {
  // The traffic communicator: the Cartesian communicator's group in a new context, so that no message of
  // the library can match one of the user's. MPI_Comm_create of the communicator's own group rather than
  // MPI_Comm_dup: the library needs neither the topology nor the attributes a duplicate copies, and
  // SimGrid SMPI 3.32 gives every rank its own copy of the group on a duplicate (P entries, 12 P bytes:
  // 3.2 GiB per communicator at 16,384 simulated processes), where a created communicator shares the
  // group it is given (docs/scale.md).
  MPI_Group group = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(cart, &group), "MPI_Comm_group");
  const int rc = MPI_Comm_create(cart, group, &traffic_);
  check_mpi(MPI_Group_free(&group), "MPI_Group_free");
  check_mpi(rc, "MPI_Comm_create");
  // Errors inside the library become exceptions, not aborts.
  check_mpi(MPI_Comm_set_errhandler(traffic_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
}

State::~State() {
  if (traffic_ != MPI_COMM_NULL) check_mpi_nothrow(MPI_Comm_free(&traffic_), "MPI_Comm_free");
}

const Schedule& State::schedule(Collective collective, bool combining) {
  auto& slot = schedules_[schedule_index(collective, combining)];
  if (!slot) {
    if (!combining) slot = std::make_unique<Schedule>(direct_schedule(offsets_, collective));
    else if (collective == Collective::alltoall) slot = std::make_unique<Schedule>(alltoall_schedule(offsets_));
    else slot = std::make_unique<Schedule>(allgather_schedule(offsets_));
  }
  return *slot;
}

const BoundSchedule& State::bound(Collective collective, bool combining) {
  auto& slot = bound_[schedule_index(collective, combining)];
  if (!slot) slot = std::make_unique<BoundSchedule>(bind(schedule(collective, combining), offsets_, topology_));
  return *slot;
}

const ReduceSchedule& State::reduce_schedule(bool combining) {
  auto& slot = reduce_schedules_[combining ? 1 : 0];
  if (!slot)
    slot = std::make_unique<ReduceSchedule>(combining ? ReduceSchedule::combining(offsets_)
                                                      : ReduceSchedule::direct(offsets_));
  return *slot;
}

const BoundReduce& State::bound_reduce(bool combining) {
  auto& slot = bound_reduce_[combining ? 1 : 0];
  if (!slot) slot = std::make_unique<BoundReduce>(bind(reduce_schedule(combining), offsets_, topology_));
  return *slot;
}

const LinearModel& State::model() {
  if (!model_) {
    if (options_.alpha > 0.0 && options_.beta > 0.0) model_ = LinearModel{options_.alpha, options_.beta};
    else model_ = measure_linear_model(traffic_);
  }
  return *model_;
}

bool State::auto_combining(Collective collective, double block_bytes) {
  int nonzero = 0;
  for (int i = 0; i < offsets_.t(); ++i) nonzero += offsets_.nonzeros(i) != 0;
  const Schedule& c = schedule(collective, true);
  // ICPP'19 section 3.1: combining when m < (alpha/beta)(t-C)/(V-t).
  return block_bytes < combining_cutoff_bytes(nonzero, c.rounds(), c.volume(), model());
}

Decision State::decide(OpKind kind, Collective collective, CallLayout& layout, bool per_call) {
  const bool contiguous = layout.all_contiguous();
  const bool fixed_algorithm = options_.algorithm != Algorithm::automatic;
  const bool fixed_execution = options_.execution != Execution::automatic;
  if (options_.execution == Execution::packed && !contiguous)
    throw Error(MPI_ERR_TYPE, "cx_execution=packed needs contiguous blocks; use zerocopy or auto");
  if (fixed_algorithm && fixed_execution)
    return {options_.algorithm == Algorithm::combining, options_.execution == Execution::packed};
  auto& cached = decisions_[static_cast<std::size_t>(kind)];
  if (cached) {
    Decision d = *cached;
    if (d.packed && !contiguous) d.packed = false;
    return d;
  }
  // First call of this kind: agree on the inputs (largest mean block, any non-contiguous layout).
  double local[2] = {layout.mean_block_bytes(), contiguous ? 0.0 : 1.0};
  double global[2] = {0.0, 0.0};
  check_mpi(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, traffic_), "MPI_Allreduce");
  Decision d{options_.algorithm == Algorithm::combining, options_.execution == Execution::packed};
  if (!fixed_algorithm) d.combining = auto_combining(collective, global[0]);
  if (!fixed_execution) {
    d.packed = false;
    if (global[1] == 0.0) {
      // Measure both executions of the same schedule on this call's own buffers.
      const BoundSchedule& s = bound(collective, d.combining);
      layout.make_temp(s.temp_mirror);
      double tz = 0.0, tp = 0.0;
      if (per_call) {
        tz = time_runs(traffic_, [&] { ZeroCopyRun(s, layout).execute(traffic_); });
        tp = time_runs(traffic_, [&] { PackedRun(s, layout, &pack_arena_).execute(traffic_); });
      } else {
        ZeroCopyRun zero(s, layout);
        PackedRun packed(s, layout);
        tz = time_runs(traffic_, [&] { zero.execute(traffic_); });
        tp = time_runs(traffic_, [&] { packed.execute(traffic_); });
      }
      d.packed = tp < tz;
    }
  }
  cached = d;
  return d;
}

void State::run(OpKind kind, Collective collective, CallLayout& layout) {
  const Decision d = decide(kind, collective, layout, true);
  const BoundSchedule& s = bound(collective, d.combining);
  layout.make_temp(s.temp_mirror, &temp_arena_);
  if (d.packed) {
    PackedRun run(s, layout, &pack_arena_);
    run.execute(traffic_);
  } else {
    ZeroCopyRun run(s, layout);
    run.execute(traffic_);
  }
}

std::unique_ptr<PlanImpl> State::plan(OpKind kind, Collective collective, CallLayout layout,
                                      std::shared_ptr<State> self) {
  Decision d{options_.algorithm == Algorithm::combining, options_.execution == Execution::packed};
  if (options_.algorithm == Algorithm::automatic || options_.execution == Execution::automatic) {
    // A plan decides for itself on its own buffers and does not touch the per-kind cache.
    std::optional<Decision> saved = decisions_[static_cast<std::size_t>(kind)];
    decisions_[static_cast<std::size_t>(kind)].reset();
    d = decide(kind, collective, layout, false);
    decisions_[static_cast<std::size_t>(kind)] = saved;
  } else if (d.packed && !layout.all_contiguous()) {
    throw Error(MPI_ERR_TYPE, "cx_execution=packed needs contiguous blocks; use zerocopy or auto");
  }
  const BoundSchedule& s = bound(collective, d.combining);
  layout.make_temp(s.temp_mirror);
  return std::make_unique<PlanImpl>(std::move(self), s, std::move(layout), d.packed);
}

PlanImpl::PlanImpl(std::shared_ptr<State> state, const BoundSchedule& schedule, CallLayout layout, bool packed)
    : state_(std::move(state)), layout_(std::move(layout)) {
  if (packed) run_ = std::make_unique<PackedRun>(schedule, layout_);
  else run_ = std::make_unique<ZeroCopyRun>(schedule, layout_);
}

void agree(const State& state, const Error* local) {
  if (state.checking()) {
    int mine = local != nullptr ? 1 : 0;
    int any = 0;
    check_mpi(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, state.traffic()), "MPI_Allreduce");
    if (any && local == nullptr) throw Error(MPI_ERR_OTHER, "invalid arguments on another process");
  }
  if (local != nullptr) throw *local;
}

}  // namespace cartex::cart::detail
