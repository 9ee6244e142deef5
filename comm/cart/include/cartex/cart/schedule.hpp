// Communication schedules of Cartesian collectives (Traeff and Hunold, ICPP 2019, section 3).
//
// A Schedule is computed once from the relative offsets alone, is identical on every process and
// never refers to buffers: blocks are named by Slot (send block i, receive block i, temporary
// slot s). Executing it binds the slots to the buffers of one call (blocking) or one plan (_init).
//
//   process R, message-combining alltoall of the 2-d offsets (1,1) (1,-1) (-1,1) (0,1):
//
//   phase 0 (dim 0)            phase 1 (dim 1)             local phase
//   round -1: send to R+(-1,0)  round -1: send to R+(0,-1)  copy blocks of a zero offset
//             block 2                     block 1            (none here)
//   round +1: send to R+(1,0)   round +1: send to R+(0,1)
//             blocks 0 1                  blocks 0 2 3
//   each round receives the same block indices from R - shift.
//   rounds of one phase run concurrently (Listing 5); phases run one after the other.
//   C = sum over phases of the rounds (distinct non-zero coordinates, Proposition 3.2);
//   V = blocks sent per process over all rounds (alltoall: sum of non-zeros z_i; allgather: edges
//   of the allgather tree, Proposition 3.3); the direct schedule has one phase of t rounds, V = t.
//
// Non-periodic meshes: every transfer records an anchor (the process whose block it carries, or for
// reductions the process the partial result is for) relative to the sender, and a range of offsets
// that must reach a process inside the mesh. A transfer is significant at a process only when the
// anchor and one of those targets exist; sender and receiver evaluate the same test, so they agree
// on the blocks of every round (see docs/cart.md, "Non-periodic meshes").
#pragma once

#include <cstdint>
#include <vector>

namespace cartex::cart {

// The t relative offset vectors of a neighborhood, flattened t*d.
class Offsets {
 public:
  Offsets(int d, std::vector<int> flat);
  // Number of dimensions d.
  int d() const { return d_; }
  // Number of offsets t.
  int t() const { return t_; }
  // Offset i as a pointer to d ints.
  const int* operator[](int i) const { return flat_.data() + static_cast<std::size_t>(i) * d_; }
  // z_i: number of non-zero coordinates of offset i (hops of block i).
  int nonzeros(int i) const;
  // C_k: number of distinct non-zero k-th coordinates.
  int distinct_nonzero(int k) const;

 private:
  int d_;
  int t_;
  std::vector<int> flat_;
};

// Which buffer a block lives in during a schedule.
enum class Buffer : std::uint8_t { send, recv, temp };

// One block position: send/receive block `index` of the call, or temporary slot `index`.
struct Slot {
  Buffer buffer;
  int index;
};

// Significance test of a transfer (see the header comment): anchor = sender + anchors[anchor];
// needed when the anchor is inside the mesh and anchor + sign*offset[check[j]] is inside for some j
// in [check_first, check_first + check_count).
struct Anchor {
  int anchor;
  int check_first;
  int check_count;
};

// One block moved in a round, or copied locally in the last phase.
struct Transfer {
  Slot from;
  Slot to;
  Anchor anchor;
};

// One send-receive round: send to R + shift, receive from R - shift.
struct Round {
  std::vector<int> shift;
  std::vector<Transfer> transfers;
};

// Rounds that run concurrently; dim is the dimension of a combining phase, -1 for direct.
struct Phase {
  int dim;
  std::vector<Round> rounds;
};

// What a schedule computes.
enum class Collective { alltoall, allgather };

// The parts a schedule builder produces (see Schedule for their meaning).
struct ScheduleParts {
  Collective collective = Collective::alltoall;
  bool combining = false;
  std::vector<Phase> phases;
  std::vector<Transfer> local_copies;
  std::vector<Slot> temp_mirror;
  int recv_redirect_base = -1;
  std::vector<int> anchors;
  std::vector<int> checks;
  int check_sign = 1;
  long long volume = 0;
};

// An immutable, buffer-independent schedule with its metrics.
class Schedule {
 public:
  explicit Schedule(const Offsets& offsets, ScheduleParts parts);

  // Alltoall or allgather.
  Collective collective() const { return p_.collective; }
  // True for a message-combining schedule, false for the direct t-round one.
  bool combining() const { return p_.combining; }
  // The communication phases in execution order.
  const std::vector<Phase>& phases() const { return p_.phases; }
  // Local copies done after the phases (zero offset, repeated allgather offsets).
  const std::vector<Transfer>& local_copies() const { return p_.local_copies; }
  // Number of temporary slots; slot s has the layout of user block temp_mirror()[s].
  int temp_slots() const { return static_cast<int>(p_.temp_mirror.size()); }
  // The user block whose datatype layout temporary slot s copies.
  const std::vector<Slot>& temp_mirror() const { return p_.temp_mirror; }
  // Temporary slot base + i replaces receive block i where that block is not significant
  // (non-periodic meshes), so intermediate data never lands in it; -1 when unused.
  int recv_redirect_base() const { return p_.recv_redirect_base; }
  // Anchor vector a (d ints) relative to the sender.
  const int* anchor(int a) const { return p_.anchors.data() + static_cast<std::size_t>(a) * d_; }
  // Offset indices of significance checks.
  const std::vector<int>& checks() const { return p_.checks; }
  // Sign applied to offsets in significance checks (+1 targets of an origin, -1 sources of a root).
  int check_sign() const { return p_.check_sign; }
  // Number of phases (communication phases only).
  int phase_count() const { return static_cast<int>(p_.phases.size()); }
  // Rounds C.
  int rounds() const { return rounds_; }
  // Per-process volume V in blocks (periodic torus; fewer at borders of non-periodic meshes).
  long long volume() const { return p_.volume; }
  // Number of dimensions.
  int d() const { return d_; }

 private:
  ScheduleParts p_;
  int d_;
  int rounds_ = 0;
};

// Listing 4 (ICPP'19): t rounds, round i sends block i to R + N[i]; zero offsets are local copies.
Schedule direct_schedule(const Offsets& offsets, Collective collective);

// Algorithm 1 (ICPP'19): message-combining alltoall, dimension-ordered routing, blocks alternating
// between a temporary and the receive buffer by the parity of their remaining hops.
Schedule alltoall_schedule(const Offsets& offsets);

// Algorithm 2 (ICPP'19): message-combining allgather over the allgather tree built in the given
// dimension order (empty: increasing C_k, ties by dimension), executed breadth-first.
Schedule allgather_schedule(const Offsets& offsets, std::vector<int> order = {});

// Dimensions sorted by increasing C_k (stable), the tree order of section 3.2.
std::vector<int> increasing_ck_order(const Offsets& offsets);

}  // namespace cartex::cart
