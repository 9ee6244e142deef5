// Binding a schedule to one process: ranks of every round and the blocks that are significant at
// this process (all of them on a torus). The result still names no buffer, so a neighborhood caches
// it and every call or plan reuses it.
#pragma once

#include <vector>

#include "cartex/cart/reduce_schedule.hpp"
#include "cartex/cart/schedule.hpp"
#include "cartex/cart/topology.hpp"

namespace cartex::cart::detail {

// One message of a phase at this process: all blocks of the phase's rounds that go to (or come
// from) one process, concatenated in round order. Rounds whose shifts coincide on this grid (small
// periodic dimensions, offsets beyond the grid) meet the same partner; the sender merges by
// destination and the receiver by source over the same rounds in the same order, so the blocks
// line up, and the tag (the first merged round's index) is the same on both ends.
struct Message {
  int rank;
  int tag;
  std::vector<Slot> slots;
};

// A phase at this process: messages in flight together, plus the transfers of rounds whose partner
// is this process itself, done as local copies (no slot is read and written in one phase).
struct BoundPhase {
  std::vector<Message> sends;
  std::vector<Message> recvs;
  std::vector<Slot> self_from;
  std::vector<Slot> self_to;
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
