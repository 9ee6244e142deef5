// The internal state of a Cartesian neighborhood, attached to its communicator: the duplicate
// communicator for traffic, the offsets, options, and the cached schedules and bindings (all
// buffer-independent). Blocking calls bind buffers per call; plans bind them once.
#pragma once

#include <mpi.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bind.hpp"
#include "cartex/cart/model.hpp"
#include "cartex/cart/neighborhood.hpp"
#include "cartex/cart/reduce_schedule.hpp"
#include "cartex/cart/schedule.hpp"
#include "cartex/cart/topology.hpp"
#include "execute.hpp"
#include "layout.hpp"

namespace cartex::cart::detail {

// The collective a call performs; auto decisions are cached per kind.
enum class OpKind { alltoall, alltoallv, alltoallw, allgather, allgatherv, allgatherw, reduce, scatter_reduce };
constexpr std::size_t kOpKinds = 8;

// Algorithm and execution chosen for a call.
struct Decision {
  bool combining;
  bool packed;
};

class PlanImpl;

// Neighborhood state; owns the traffic communicator (a duplicate of the Cartesian one).
class State {
 public:
  State(MPI_Comm cart, Topology topology, Offsets offsets, Options options);
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State();

  // Communicator all collective traffic uses (never the user's).
  MPI_Comm traffic() const { return traffic_; }
  // Mesh and caller position.
  const Topology& topology() const { return topology_; }
  // The relative offsets.
  const Offsets& offsets() const { return offsets_; }
  // Creation options.
  const Options& options() const { return options_; }
  // Edge weights given at creation (empty: unweighted).
  std::vector<int>& weights() { return weights_; }
  // True when collectives agree on argument errors (isomorphism check on).
  bool checking() const { return options_.check_isomorphic; }

  // Cached schedule of a collective.
  const Schedule& schedule(Collective collective, bool combining);
  // Cached binding of that schedule to this process.
  const BoundSchedule& bound(Collective collective, bool combining);
  // Cached reduction schedule.
  const ReduceSchedule& reduce_schedule(bool combining);
  // Cached binding of the reduction schedule.
  const BoundReduce& bound_reduce(bool combining);

  // Runs a blocking allgather/alltoall call on its layout.
  void run(OpKind kind, Collective collective, CallLayout& layout);
  // Builds a plan bound to the layout.
  std::unique_ptr<PlanImpl> plan(OpKind kind, Collective collective, CallLayout layout,
                                 std::shared_ptr<State> self);
  // Runs a blocking reduction; own[i] is the caller's contribution for offset i.
  void reduce(OpKind kind, std::vector<BufferRegion> own, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op);

  // alpha/beta: from the options, or measured once by ping-pong (collective on first use).
  const LinearModel& model();

 private:
  // per_call: time executions as a blocking call pays them (run objects built each time);
  // otherwise as a plan pays them (built once).
  Decision decide(OpKind kind, Collective collective, CallLayout& layout, bool per_call);
  bool auto_combining(Collective collective, double block_bytes);

  MPI_Comm traffic_ = MPI_COMM_NULL;
  Topology topology_;
  Offsets offsets_;
  Options options_;
  std::array<std::unique_ptr<Schedule>, 4> schedules_;
  std::array<std::unique_ptr<BoundSchedule>, 4> bound_;
  std::array<std::unique_ptr<ReduceSchedule>, 2> reduce_schedules_;
  std::array<std::unique_ptr<BoundReduce>, 2> bound_reduce_;
  std::array<std::optional<Decision>, kOpKinds> decisions_;
  std::optional<LinearModel> model_;
  std::vector<int> weights_;
  std::vector<char> temp_arena_;  // scratch of blocking calls (never referenced after a call)
  std::vector<char> pack_arena_;
};

// A persistent collective bound to its buffers: owns the layout (and temporary storage) and the
// run object with its committed datatypes; keeps the state alive.
class PlanImpl {
 public:
  PlanImpl(std::shared_ptr<State> state, const BoundSchedule& schedule, CallLayout layout, bool packed);
  // Runs the collective once.
  void execute() { run_->execute(state_->traffic()); }
  // Posts the collective's first phase (PhasedRun::begin).
  void start() { run_->begin(state_->traffic()); }
  // Advances without blocking; true when the collective is complete (PhasedRun::test).
  bool test() { return run_->test(); }
  // Blocks until the collective is complete.
  void wait() { run_->wait(); }

 private:
  std::shared_ptr<State> state_;
  CallLayout layout_;
  std::unique_ptr<PhasedRun> run_;
};

// State attached to a communicator created by CX_Cart_neighborhood_create, or throws
// MPI_ERR_TOPOLOGY.
std::shared_ptr<State> state_of(MPI_Comm comm);

// Attaches the state to the communicator (freed with it).
void attach(MPI_Comm comm, std::shared_ptr<State> state);

// With checking on: every process learns whether any process failed its argument checks, and
// those that passed throw MPI_ERR_OTHER naming the failure elsewhere; then rethrows local errors.
void agree(const State& state, const Error* local);

}  // namespace cartex::cart::detail
