#pragma once
// Where an app's ranks sit, and what that costs (issue 7, NESUS'14 carried to the process grid):
//
//   launch ranks --(node layout: detected, or simulated by CARTEX_RANKS_PER_NODE/_MAPPING)--> nodes
//   grid position g --(assignment: MPI order, or node blocks when processes.reorder)--> launch rank
//
// With reordering the run uses a communicator in which rank g holds grid position g, so every
// layer above keeps "rank == grid position"; only the node of a rank changes.
#include <mpi.h>

#include <memory>
#include <string>

#include "cartex/core/config.hpp"
#include "cartex/core/decomposition.hpp"
#include "cartex/halo/pattern.hpp"
#include "cartex/kernels/diagnostics.hpp"
#include "cartex/ranks/allreduce.hpp"
#include "cartex/ranks/grid_reordering.hpp"

namespace cartex::app {

class Placement {
 public:
  // Reads the layout (throws InputError for malformed CARTEX_RANK* variables) and chooses the
  // node-block assignment for the halo blocks of `pattern` (this launch rank's). Collective.
  Placement(const core::Config& cfg, const core::ProcessGrid& procs, const halo::HaloPattern& pattern, MPI_Comm launch);
  Placement(const Placement&) = delete;
  Placement& operator=(const Placement&) = delete;

  // The communicator the run uses: `launch`, or its reordered copy.
  MPI_Comm comm() const { return reordered_ ? reordered_->get() : launch_; }
  bool reordered() const { return reordered_ != nullptr; }
  const ranks::NodeLayout& launch_layout() const { return launch_layout_; }
  // Node of every rank of comm().
  const ranks::NodeLayout& layout() const { return layout_; }
  // "detected" or "simulated (CARTEX_RANKS_PER_NODE=.., CARTEX_RANK_MAPPING=..)".
  const std::string& origin() const { return origin_; }
  // The host names the launch ranks run on (MPI_Get_processor_name), rank 0's copy: "node1 (ranks
  // 0-1), node2 (ranks 2-3)", nodes in order of their first rank; empty on the other ranks.
  const std::string& hosts() const { return hosts_; }
  const ranks::GridAssignment& identity() const { return identity_; }
  // The node-block assignment; its `block` is empty when no block fits the layout.
  const ranks::GridAssignment& blocks() const { return blocks_; }

  // The Allreduce of comm.allreduce on comm() (Ring* renames by layout()).
  kernels::Allreduce allreduce(const std::string& algorithm) const;

 private:
  MPI_Comm launch_;
  ranks::NodeLayout launch_layout_, layout_;
  std::string origin_, hosts_;
  ranks::GridAssignment identity_, blocks_;
  std::unique_ptr<ranks::ReorderedComm> reordered_;
  std::shared_ptr<MPI_Comm> reduce_comm_;  // private duplicate of comm() for the diagnostics
};

// "N ranks on M node(s), MAPPING, ORIGIN; grid in MPI order" or "...; grid in node blocks AxBxC".
std::string placement_text(const Placement& p, int dim);

// Messages and bytes of one halo exchange (one message per non-empty block, as p2p sends) summed
// over all ranks, split by whether the two ranks are on different nodes when grid position g is
// held by assignment.rank_of_cell[g] and nodes are those of `launch_layout`. `pattern` is this
// rank's, whose rank in its communicator is its grid position. Collective.
ranks::Traffic exchange_traffic(const halo::HaloPattern& pattern, const ranks::NodeLayout& launch_layout,
                                const ranks::GridAssignment& assignment, MPI_Comm comm);

}  // namespace cartex::app
