// Node layouts: detected, simulated, classified (NESUS'14 section I: sequential and round-robin).
#include "cartex/ranks/layout.hpp"

#include <cstdlib>
#include <map>
#include <stdexcept>

#include "mpi_check.hpp"

namespace cartex::ranks {

NodeLayout::NodeLayout(const std::vector<int>& node_label_of_rank) : node_(node_label_of_rank.size()) {
  std::map<int, int> index;  // label -> node number, assigned in order of the lowest rank
  for (std::size_t r = 0; r < node_label_of_rank.size(); ++r) {
    const auto it = index.emplace(node_label_of_rank[r], static_cast<int>(index.size())).first;
    node_[r] = it->second;
    if (members_.size() < index.size()) members_.emplace_back();
    members_[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(r));
  }
}

int NodeLayout::ranks_per_node() const {
  if (members_.empty()) return 0;
  for (const auto& m : members_)
    if (m.size() != members_.front().size()) return 0;
  return static_cast<int>(members_.front().size());
}

Mapping NodeLayout::mapping() const {
  const int q = ranks_per_node(), m = nodes();
  if (q == 0) return Mapping::irregular;
  bool sequential = true, round_robin = true;
  for (int r = 0; r < size(); ++r) {
    sequential = sequential && node_of(r) == r / q;
    round_robin = round_robin && node_of(r) == r % m;
  }
  return sequential ? Mapping::sequential : round_robin ? Mapping::round_robin : Mapping::irregular;
}

NodeLayout detect_layout(MPI_Comm comm) {
  const int me = core::comm_rank(comm);
  const int procs = core::comm_size(comm);
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int label = me;  // the lowest rank of this process's node
  const int bcast_rc = MPI_Bcast(&label, 1, MPI_INT, 0, node);
  const int free_rc = MPI_Comm_free(&node);
  check_mpi(bcast_rc, "MPI_Bcast");
  check_mpi(free_rc, "MPI_Comm_free");
  std::vector<int> labels(static_cast<std::size_t>(procs));
  check_mpi(MPI_Allgather(&label, 1, MPI_INT, labels.data(), 1, MPI_INT, comm), "MPI_Allgather");
  return NodeLayout(labels);
}

NodeLayout simulated_layout(int procs, int ranks_per_node, Mapping mapping) {
  if (procs < 1 || ranks_per_node < 1) throw std::invalid_argument("simulated layout needs procs, ranks per node >= 1");
  const int nodes = (procs + ranks_per_node - 1) / ranks_per_node;
  std::vector<int> labels(static_cast<std::size_t>(procs));
  for (int r = 0; r < procs; ++r) {
    switch (mapping) {
      case Mapping::sequential: labels[static_cast<std::size_t>(r)] = r / ranks_per_node; break;
      case Mapping::round_robin: labels[static_cast<std::size_t>(r)] = r % nodes; break;
      case Mapping::irregular: throw std::invalid_argument("a simulated layout is sequential or round_robin");
    }
  }
  return NodeLayout(labels);
}

NodeLayout layout_from_env(MPI_Comm comm) {
  const char* per_node = std::getenv("CARTEX_RANKS_PER_NODE");
  if (per_node == nullptr || *per_node == '\0') return detect_layout(comm);
  char* end = nullptr;
  const long q = std::strtol(per_node, &end, 10);
  if (*end != '\0' || q < 1 || q > 1 << 20)
    throw std::invalid_argument(std::string("CARTEX_RANKS_PER_NODE: expected a positive integer, got '") + per_node + "'");
  const char* kind = std::getenv("CARTEX_RANK_MAPPING");
  const Mapping mapping = kind && *kind ? parse_mapping(kind) : Mapping::sequential;
  return simulated_layout(core::comm_size(comm), static_cast<int>(q), mapping);
}

std::string to_string(Mapping mapping) {
  switch (mapping) {
    case Mapping::sequential: return "sequential";
    case Mapping::round_robin: return "round_robin";
    case Mapping::irregular: return "irregular";
  }
  return "irregular";
}

Mapping parse_mapping(const std::string& text) {
  if (text == "sequential") return Mapping::sequential;
  if (text == "round_robin") return Mapping::round_robin;
  throw std::invalid_argument("CARTEX_RANK_MAPPING: expected sequential or round_robin, got '" + text + "'");
}

}  // namespace cartex::ranks
