// Algorithm 2 of HiPC'17. Each round: choose a friend (lines 3-22), tell all active friends the
// choice (line 23), pair if the choice is mutual (lines 24-26), tell them the state (line 27) and
// drop paired and terminal friends (line 28).
//
// Two details the paper's pseudo code leaves implicit are fixed here:
// * line 14 reads "if F != empty then terminal"; the text says a process becomes terminal when
//   no friend is left to try, so the test is F == empty;
// * the friends a process still *talks to* (active: neither paired nor terminal) are kept apart
//   from the friends it may still *choose* (line 13 removes a rejected choice only from the
//   latter); otherwise a process would stop sending to a friend that still waits for it.
// The first choice is the friend with the most common neighbors, ties to the lowest rank. That is
// a consistent total order on friendship edges, so the heaviest edge of the whole friendship
// graph is chosen from both ends in round one: every Algorithm 1 iteration with friends pairs at
// least one couple. The rank rule of line 7 (stick to the previous choice only if it has the higher
// rank) breaks cycles of processes waiting for each other: the highest active rank never sticks,
// so it pairs or drops a candidate every round and rounds are bounded by the number of friends.
#include "pairing.hpp"

#include <set>
#include <vector>

#include "cartex/graph/error.hpp"
#include "tags.hpp"

namespace cartex::graph::detail {
namespace {

constexpr int kPaired = 1;
constexpr int kTerminal = 2;

// The friend in `among` with the most common neighbors (ties: lowest rank), or -1.
int best_friend(const std::map<int, int>& friends, const std::set<int>& among) {
  int best = -1, best_count = -1;
  for (int q : among) {
    const int c = friends.at(q);
    if (c > best_count) best = q, best_count = c;
  }
  return best;
}

// Sends `value` to every active friend and returns what each of them sent (same order).
std::vector<int> exchange(MPI_Comm comm, const std::set<int>& active, int value, int tag) {
  std::vector<int> got(active.size(), -1);
  std::vector<MPI_Request> req(2 * active.size());
  std::size_t i = 0;
  for (int q : active) {
    check_mpi(MPI_Irecv(&got[i], 1, MPI_INT, q, tag, comm, &req[2 * i]), "MPI_Irecv (friend pairing)");
    check_mpi(MPI_Isend(&value, 1, MPI_INT, q, tag, comm, &req[2 * i + 1]), "MPI_Isend (friend pairing)");
    ++i;
  }
  check_mpi(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall (friend pairing)");
  return got;
}

}  // namespace

int pair_with_friend(MPI_Comm comm, int me, const std::map<int, int>& friends) {
  std::set<int> active, candidates;
  for (const auto& f : friends) active.insert(f.first);
  candidates = active;
  std::map<int, int> chose;  // what each active friend chose in the previous round
  bool paired = false, terminal = active.empty(), first = true;
  int choice = -1;
  while (!paired && !terminal) {
    const int old = choice;
    if (first) {
      choice = best_friend(friends, candidates);  // line 4
      first = false;
    } else if (active.count(old) && me < old) {
      choice = old;  // lines 7-8: the previous choice is still looking and ranks higher
    } else {
      std::set<int> lower_choosers;  // line 11: lower-ranked friends that chose this process
      for (int q : active)
        if (q < me && chose[q] == me) lower_choosers.insert(q);
      choice = best_friend(friends, lower_choosers);
      if (choice < 0) {
        candidates.erase(old);  // line 13
        choice = best_friend(friends, candidates);
        terminal = choice < 0;  // lines 14-15
      }
    }
    const std::vector<int> choices = exchange(comm, active, choice, kTagChoice);  // line 23
    std::size_t i = 0;
    for (int q : active) chose[q] = choices[i++];
    paired = !terminal && chose[choice] == me;  // lines 24-26
    const int state = paired ? kPaired : terminal ? kTerminal : 0;
    const std::vector<int> states = exchange(comm, active, state, kTagState);  // line 27
    i = 0;
    for (auto it = active.begin(); it != active.end(); ++i) {  // line 28
      if (states[i] != 0) {
        candidates.erase(*it);
        chose.erase(*it);
        it = active.erase(it);
      } else {
        ++it;
      }
    }
  }
  return paired ? choice : -1;
}

}  // namespace cartex::graph::detail
