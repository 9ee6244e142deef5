// Algorithm 1 of HiPC'17: the iterative message-combining pattern.
//
// Iterations run in lockstep over the communicator and end when no process has a friend left (one
// MPI_Allreduce per iteration). The paper ends each process on its own with "done"
// notifications (lines 26-30); with the matrix update of line 23 also needing answers from
// processes that are already done, a common iteration count is the simple way to keep every
// exchange matched, and it gives every process the same number of schedule steps.
#include "cartex/graph/pattern.hpp"

#include <algorithm>
#include <array>

#include "cartex/graph/error.hpp"
#include "common_neighborhood.hpp"
#include "pairing.hpp"
#include "tags.hpp"

namespace cartex::graph {
namespace {

constexpr int kUntouched = 0;
constexpr int kOnloaded = 1;   // the sender will send a combined message {sender, partner}
constexpr int kOffloaded = 2;  // the sender's partner serves this neighbor instead

std::vector<int> sorted_unique_without(std::vector<int> v, int me) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  v.erase(std::remove(v.begin(), v.end(), me), v.end());
  return v;
}

void erase_sorted(std::vector<int>& v, int x) {
  const auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it != v.end() && *it == x) v.erase(it);
}

// Lines 20-21: tells every active out-neighbor what happened to it in this iteration and applies
// what the active in-neighbors tell this process to `active_in` and `step.incoming`.
void notify(MPI_Comm comm, Step& step, const std::vector<int>& active_out, std::vector<int>& active_in) {
  std::vector<std::array<int, 2>> out(active_out.size()), in(active_in.size());
  for (std::size_t i = 0; i < active_out.size(); ++i) {
    const int n = active_out[i];
    const bool on = std::binary_search(step.onloaded.begin(), step.onloaded.end(), n);
    const bool off = std::binary_search(step.offloaded.begin(), step.offloaded.end(), n);
    out[i] = {on ? kOnloaded : off ? kOffloaded : kUntouched, step.friend_rank};
  }
  std::vector<MPI_Request> req;
  req.reserve(active_out.size() + active_in.size());
  for (std::size_t i = 0; i < active_in.size(); ++i) {
    req.emplace_back();
    check_mpi(MPI_Irecv(in[i].data(), 2, MPI_INT, active_in[i], detail::kTagNotify, comm, &req.back()),
              "MPI_Irecv (pattern notification)");
  }
  for (std::size_t i = 0; i < active_out.size(); ++i) {
    req.emplace_back();
    check_mpi(MPI_Isend(out[i].data(), 2, MPI_INT, active_out[i], detail::kTagNotify, comm, &req.back()),
              "MPI_Isend (pattern notification)");
  }
  check_mpi(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall (pattern notification)");
  std::vector<int> still;
  for (std::size_t i = 0; i < active_in.size(); ++i) {
    if (in[i][0] == kOnloaded) step.incoming.push_back({active_in[i], in[i][1]});
    if (in[i][0] == kUntouched) still.push_back(active_in[i]);
  }
  active_in = std::move(still);
}

std::vector<int> neighbors(MPI_Comm comm, bool sources) {
  int indeg = 0, outdeg = 0, weighted = 0;
  check_mpi(MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted), "MPI_Dist_graph_neighbors_count");
  std::vector<int> in(static_cast<std::size_t>(indeg) + 1), out(static_cast<std::size_t>(outdeg) + 1);
  std::vector<int> inw(in.size()), outw(out.size());
  check_mpi(MPI_Dist_graph_neighbors(comm, indeg, in.data(), inw.data(), outdeg, out.data(), outw.data()),
            "MPI_Dist_graph_neighbors");
  in.resize(static_cast<std::size_t>(indeg));
  out.resize(static_cast<std::size_t>(outdeg));
  return sources ? in : out;
}

}  // namespace

std::shared_ptr<const Pattern> Pattern::build(MPI_Comm graph_comm, int theta) {
  int topo = MPI_UNDEFINED;
  check_mpi(MPI_Topo_test(graph_comm, &topo), "MPI_Topo_test");
  if (topo != MPI_DIST_GRAPH) throw Error("cartex::graph::Pattern::build: the communicator has no distributed graph");
  if (theta < 1) throw Error("cartex::graph::Pattern::build: theta must be at least 1");
  const double start = MPI_Wtime();
  std::shared_ptr<Pattern> p(new Pattern());
  p->theta_ = theta;
  check_mpi(MPI_Comm_dup(graph_comm, &p->comm_), "MPI_Comm_dup");
  int me = 0;
  check_mpi(MPI_Comm_rank(p->comm_, &me), "MPI_Comm_rank");
  p->sources_ = neighbors(p->comm_, true);
  p->destinations_ = neighbors(p->comm_, false);

  std::vector<int> active_out = sorted_unique_without(p->destinations_, me);  // line 3: Oa = O
  std::vector<int> active_in = sorted_unique_without(p->sources_, me);        // Ia = I
  p->naive_stages_ = static_cast<int>(active_out.size());
  auto matrix = detail::CommonNeighborhood::exchange(p->comm_, me, active_out, active_in);  // line 1
  for (;;) {
    const auto friends = matrix.friends(theta);  // lines 2 and 24
    int mine = friends.empty() ? 0 : 1, any = 0;
    check_mpi(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, p->comm_), "MPI_Allreduce (pattern loop)");
    if (any == 0) break;  // line 4
    Step step;
    step.friend_rank = detail::pair_with_friend(p->comm_, me, friends);  // line 6
    if (step.friend_rank >= 0) {
      const std::vector<int> cn = matrix.common_with(step.friend_rank);  // lines 8-9 (ascending)
      // Lines 10-17: the lower rank keeps the first half; both ends split at the same index.
      const auto half = cn.begin() + static_cast<std::ptrdiff_t>((cn.size() + 1) / 2);
      std::vector<int> first(cn.begin(), half), second(half, cn.end());
      step.onloaded = me < step.friend_rank ? first : second;
      step.offloaded = me < step.friend_rank ? second : first;
    }
    notify(p->comm_, step, active_out, active_in);  // lines 20-21
    for (int n : step.onloaded) erase_sorted(active_out, n);  // line 22
    for (int n : step.offloaded) erase_sorted(active_out, n);
    matrix = detail::CommonNeighborhood::exchange(p->comm_, me, active_out, active_in);  // line 23
    p->steps_.push_back(std::move(step));  // line 18
  }
  p->direct_targets_ = active_out;  // line 27
  p->direct_sources_ = active_in;   // lines 28-30
  for (const Step& s : p->steps_)
    p->stages_ += (s.friend_rank >= 0 ? 1 : 0) + static_cast<int>(s.onloaded.size());
  p->stages_ += static_cast<int>(p->direct_targets_.size());
  std::array<int, 2> local{p->stages_, p->naive_stages_}, global{};
  check_mpi(MPI_Allreduce(local.data(), global.data(), 2, MPI_INT, MPI_MAX, p->comm_), "MPI_Allreduce (stages)");
  p->max_stages_ = global[0];
  p->max_naive_stages_ = global[1];
  p->build_seconds_ = MPI_Wtime() - start;
  return p;
}

Pattern::~Pattern() {
  int finalized = 0;
  check_mpi_nothrow(MPI_Finalized(&finalized), "MPI_Finalized");
  if (comm_ != MPI_COMM_NULL && !finalized) check_mpi_nothrow(MPI_Comm_free(&comm_), "MPI_Comm_free");
}

int Pattern::pairings() const {
  return static_cast<int>(std::count_if(steps_.begin(), steps_.end(), [](const Step& s) { return s.friend_rank >= 0; }));
}

}  // namespace cartex::graph
