// Binding a schedule to one process: ranks of every round and the blocks that are significant at
// this process (all of them on a torus). The result still names no buffer, so a neighborhood caches
// it and every call or plan reuses it.
#pragma once

#include <vector>

#include "cartex/cart/reduce_schedule.hpp"
#include "cartex/cart/schedule.hpp"
#include "cartex/cart/topology.hpp"

namespace cartex::cart::detail {

// One round at this process; tag is the round's index in the schedule, so rounds that meet the
// same partner (small periodic dimensions) never match each other's messages.
struct BoundRound {
  int send_rank;
  int recv_rank;
  int tag;
  std::vector<Slot> send;
  std::vector<Slot> recv;
};

// A phase at this process: its rounds run concurrently.
struct BoundPhase {
  std::vector<BoundRound> rounds;
};

// A schedule bound to this process.
struct BoundSchedule {
  std::vector<BoundPhase> phases;
  std::vector<Slot> copy_from;  // local copies after the phases
  std::vector<Slot> copy_to;
  std::vector<Slot> temp_mirror;
};

// Binds a schedule to the calling process of topology.
BoundSchedule bind(const Schedule& schedule, const Offsets& offsets, const Topology& topology);

// A reduction round at this process: partials sent, incoming slots, and where each is reduced.
struct BoundReduceRound {
  int send_rank;
  int recv_rank;
  int tag;
  std::vector<Slot> send;
  std::vector<int> incoming;
  std::vector<Slot> into;
};

// A leaf at this process: the slot and the offsets whose own contributions start it.
struct BoundLeaf {
  Slot slot;
  std::vector<int> indices;
};

// A reduction schedule bound to this process.
struct BoundReduce {
  std::vector<BoundLeaf> leaves;
  std::vector<std::vector<BoundReduceRound>> phases;
  int temp_slots = 0;
};

// Binds a reduction schedule to the calling process of topology.
BoundReduce bind(const ReduceSchedule& schedule, const Offsets& offsets, const Topology& topology);

}  // namespace cartex::cart::detail
