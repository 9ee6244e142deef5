// Algorithm 1 (ICPP'19): the message-combining alltoall schedule.
//
// Block i is routed dimension by dimension through R + (N[i]_0,0..), R + (N[i]_0,N[i]_1,0..), ...;
// phase k has one round per distinct non-zero k-th coordinate (Proposition 3.2: C = sum C_k,
// V = sum z_i). A block is always kept at index i and alternates between the temporary and the
// receive buffer: after a hop with r hops still to go it lands in recv if r is even, in temp if r
// is odd (Algorithm 1, lines 11-17), so the last hop writes recv and no round reads and writes the
// same place. The first hop reads straight from the send buffer.
#include <algorithm>
#include <map>
#include <utility>

#include "cartex/cart/schedule.hpp"

namespace cartex::cart {

Schedule alltoall_schedule(const Offsets& offsets) {
  const int d = offsets.d();
  const int t = offsets.t();
  ScheduleParts p;
  p.collective = Collective::alltoall;
  p.combining = true;
  // temp slots 0..t-1 hold blocks between hops; t..2t-1 replace receive blocks that are not
  // significant at a process of a non-periodic mesh (see Schedule::recv_redirect_base).
  for (int s = 0; s < 2 * t; ++s) p.temp_mirror.push_back({Buffer::recv, s % t});
  p.recv_redirect_base = t;
  std::vector<int> hops_done(static_cast<std::size_t>(t), 0);
  std::vector<int> prefix(static_cast<std::size_t>(t) * d, 0);  // route so far, per block
  for (int k = 0; k < d; ++k) {
    // Algorithm 1 line 7: sort on coordinate k (a map of value -> blocks in index order).
    std::map<int, std::vector<int>> by_value;
    for (int i = 0; i < t; ++i)
      if (offsets[i][k] != 0) by_value[offsets[i][k]].push_back(i);
    Phase phase{k, {}};
    for (const auto& [value, blocks] : by_value) {
      Round r;
      r.shift.assign(static_cast<std::size_t>(d), 0);
      r.shift[static_cast<std::size_t>(k)] = value;
      for (int i : blocks) {
        const int z = offsets.nonzeros(i);
        const int h = ++hops_done[static_cast<std::size_t>(i)];
        const int remaining = z - h;
        const Slot to = remaining % 2 == 0 ? Slot{Buffer::recv, i} : Slot{Buffer::temp, i};
        const Slot from = h == 1 ? Slot{Buffer::send, i}
                                 : (remaining % 2 == 0 ? Slot{Buffer::temp, i} : Slot{Buffer::recv, i});
        // The origin of block i, seen from the sender, is sender - (route so far).
        const int a = static_cast<int>(p.anchors.size()) / d;
        for (int j = 0; j < d; ++j) p.anchors.push_back(-prefix[static_cast<std::size_t>(i) * d + j]);
        p.checks.push_back(i);
        r.transfers.push_back({from, to, {a, static_cast<int>(p.checks.size()) - 1, 1}});
        prefix[static_cast<std::size_t>(i) * d + k] = value;
        ++p.volume;  // Algorithm 1 line 24
      }
      phase.rounds.push_back(std::move(r));
    }
    if (!phase.rounds.empty()) p.phases.push_back(std::move(phase));
  }
  // The extra non-communication phase: blocks to the zero offset are copied locally.
  std::vector<int> origin(static_cast<std::size_t>(d), 0);
  for (int i = 0; i < t; ++i) {
    if (offsets.nonzeros(i) != 0) continue;
    const int a = static_cast<int>(p.anchors.size()) / d;
    p.anchors.insert(p.anchors.end(), origin.begin(), origin.end());
    p.checks.push_back(i);
    p.local_copies.push_back({{Buffer::send, i}, {Buffer::recv, i}, {a, static_cast<int>(p.checks.size()) - 1, 1}});
  }
  return Schedule(offsets, std::move(p));
}

}  // namespace cartex::cart
