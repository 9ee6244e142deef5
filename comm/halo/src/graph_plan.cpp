#include "graph_plan.hpp"

#include <fmt/format.h>

namespace cartex::detail {

namespace {

// The blocks whose partner exists, in block order: the neighbor order of the dist graph.
std::vector<const std::vector<long>*> existing(const HaloPattern& p, bool send) {
  std::vector<const std::vector<long>*> out;
  for (size_t i = 0; i < p.neighbors.size(); ++i) {
    if (send && p.target[i] != MPI_PROC_NULL) out.push_back(&p.send[i]);
    if (!send && p.source[i] != MPI_PROC_NULL) out.push_back(&p.recv[i]);
  }
  return out;
}

// Friendship threshold: pairs must share this many out-neighbors (paper 002's recommended range).
constexpr int kTheta = 4;

}  // namespace

GraphCombiningPlan::GraphCombiningPlan(const HaloPattern& p, MPI_Comm comm)
    : pattern_(p),
      send_list_(existing(pattern_, true)),
      recv_list_(existing(pattern_, false)),
      send_buf_("cartex::graph_send", send_list_.size()),
      recv_buf_("cartex::graph_recv", recv_list_.size()),
      send_host_(Kokkos::create_mirror_view(send_buf_)),
      recv_host_(Kokkos::create_mirror_view(recv_buf_)) {
  std::vector<int> sources, targets;
  for (size_t i = 0; i < p.neighbors.size(); ++i) {
    if (p.source[i] != MPI_PROC_NULL) sources.push_back(p.source[i]);
    if (p.target[i] != MPI_PROC_NULL) targets.push_back(p.target[i]);
  }
  MPI_Dist_graph_create_adjacent(comm, static_cast<int>(sources.size()), sources.data(), MPI_UNWEIGHTED,
                                 static_cast<int>(targets.size()), targets.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_);
  auto counts = [](const PackList& l, size_t n, std::vector<int>& c, std::vector<int>& d) {
    for (size_t b = 0; b < n; ++b) {
      c.push_back(static_cast<int>(l.count(b)));
      d.push_back(static_cast<int>(l.offset(b)));
    }
  };
  std::vector<int> sc, sd, rc, rd;
  counts(send_list_, targets.size(), sc, sd);
  counts(recv_list_, sources.size(), rc, rd);
  auto pattern = graph::Pattern::build(graph_, kTheta);
  plan_ = std::make_unique<graph::Plan>(graph::neighbor_alltoallv_init(send_host_.data(), sc.data(), sd.data(), MPI_DOUBLE,
                                                                       recv_host_.data(), rc.data(), rd.data(), MPI_DOUBLE,
                                                                       pattern));
  // comm/graph turns self loops (a periodic dimension of one process) into local copies that are no
  // MPI messages; the halo stats count every block a rank sends itself as a message, as the other
  // backends do (docs/backends.md), so they are added here.
  long self_messages = 0, self_cells = 0;
  for (size_t b = 0; b < targets.size(); ++b)
    if (targets[b] == pattern_.rank && send_list_.count(b) > 0) {
      ++self_messages;
      self_cells += send_list_.count(b);
    }
  stats_.messages = plan_->messages() + self_messages;
  stats_.bytes = static_cast<long>(plan_->bytes()) + self_cells * static_cast<long>(sizeof(double));
  stats_.rounds = pattern->iterations() + 1;  // combining iterations, then the direct messages
  note_ = fmt::format("graph_combining: theta {}, {} combining iteration(s), {} message(s) instead of {} on this rank",
                      pattern->theta(), pattern->iterations(), pattern->stages(), pattern->naive_stages());
}

GraphCombiningPlan::~GraphCombiningPlan() {
  plan_.reset();  // the plan's pattern holds its own duplicate of the graph communicator
  if (graph_ != MPI_COMM_NULL) MPI_Comm_free(&graph_);
}

void GraphCombiningPlan::start(Field& f) {
  send_list_.pack(f, send_buf_);
  Kokkos::deep_copy(send_host_, send_buf_);
  plan_->execute();
}

void GraphCombiningPlan::finish(Field& f) {
  Kokkos::deep_copy(recv_buf_, recv_host_);
  recv_list_.unpack(f, recv_buf_);
  Kokkos::fence();
}

}  // namespace cartex::detail
