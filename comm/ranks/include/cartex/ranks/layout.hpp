// Node layout of a communicator: which node each rank runs on, and whether the mapping is one of
// the regular mappings of Rico-Gallego and Díaz-Martín's renaming of process ranks for the Ring
// allreduce (Ring*; NESUS 2014 workshop, hdl.handle.net/10016/21978; "NESUS'14", "the paper"):
// sequential (consecutive ranks fill a node) or round-robin (ranks rotate over the nodes).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace cartex::ranks {

// How ranks are mapped to nodes.
enum class Mapping { sequential, round_robin, irregular };

// The node index (0 .. nodes()-1) of every rank of a communicator, nodes numbered by their
// lowest rank.
class NodeLayout {
 public:
  // From per-rank node labels (any integers); nodes are renumbered by their lowest rank.
  explicit NodeLayout(const std::vector<int>& node_label_of_rank);

  // Number of ranks P.
  int size() const { return static_cast<int>(node_.size()); }
  // Number of nodes M.
  int nodes() const { return static_cast<int>(members_.size()); }
  // The node of `rank`.
  int node_of(int rank) const { return node_[static_cast<std::size_t>(rank)]; }
  // The ranks on `node`, ascending.
  const std::vector<int>& ranks_on(int node) const { return members_[static_cast<std::size_t>(node)]; }
  // Ranks per node Q if every node holds the same number, else 0.
  int ranks_per_node() const;
  // The paper's classification: sequential (node = rank / Q), round-robin (node = rank mod M),
  // irregular otherwise (also for unequal nodes). One node, or one rank per node, is sequential.
  Mapping mapping() const;

 private:
  std::vector<int> node_;
  std::vector<std::vector<int>> members_;
};

// The layout the machine reports: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). Collective.
NodeLayout detect_layout(MPI_Comm comm);

// A layout of `procs` ranks with `ranks_per_node` per node (the last node holds the rest) and
// the given mapping (sequential or round_robin).
NodeLayout simulated_layout(int procs, int ranks_per_node, Mapping mapping);

// The simulated layout if CARTEX_RANKS_PER_NODE is set (mapping from CARTEX_RANK_MAPPING:
// "sequential", the default, or "round_robin"), else detect_layout(comm). Collective.
// Throws std::invalid_argument for malformed values.
NodeLayout layout_from_env(MPI_Comm comm);

// "sequential", "round_robin" or "irregular".
std::string to_string(Mapping mapping);
// Inverse of to_string for sequential and round_robin; throws std::invalid_argument otherwise.
Mapping parse_mapping(const std::string& text);

}  // namespace cartex::ranks
