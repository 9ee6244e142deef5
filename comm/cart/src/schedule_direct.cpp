// Offsets, the Schedule container, and the direct schedule of Listing 4 (ICPP'19).
#include <algorithm>
#include <set>
#include <utility>

#include "cartex/cart/schedule.hpp"

namespace cartex::cart {

Offsets::Offsets(int d, std::vector<int> flat)
    : d_(d), t_(d > 0 ? static_cast<int>(flat.size()) / d : 0), flat_(std::move(flat)) {}

int Offsets::nonzeros(int i) const {
  int z = 0;
  for (int k = 0; k < d_; ++k) z += (*this)[i][k] != 0;
  return z;
}

int Offsets::distinct_nonzero(int k) const {
  std::set<int> values;
  for (int i = 0; i < t_; ++i)
    if ((*this)[i][k] != 0) values.insert((*this)[i][k]);
  return static_cast<int>(values.size());
}

Schedule::Schedule(const Offsets& offsets, ScheduleParts parts) : p_(std::move(parts)), d_(offsets.d()) {
  for (const Phase& ph : p_.phases) rounds_ += static_cast<int>(ph.rounds.size());
}

Schedule direct_schedule(const Offsets& offsets, Collective collective) {
  const int d = offsets.d();
  ScheduleParts p;
  p.collective = collective;
  p.combining = false;
  // One anchor: the sender itself is the origin of every block.
  p.anchors.assign(static_cast<std::size_t>(d), 0);
  Phase phase{-1, {}};
  for (int i = 0; i < offsets.t(); ++i) {
    const int block = collective == Collective::alltoall ? i : 0;
    p.checks.push_back(i);
    const Anchor anchor{0, static_cast<int>(p.checks.size()) - 1, 1};
    const Transfer tr{{Buffer::send, block}, {Buffer::recv, i}, anchor};
    if (offsets.nonzeros(i) == 0) {
      p.local_copies.push_back(tr);
      continue;
    }
    // Listing 4 round i: send block i to R + N[i], receive block i from R - N[i].
    Round r;
    r.shift.assign(offsets[i], offsets[i] + d);
    r.transfers.push_back(tr);
    phase.rounds.push_back(std::move(r));
    ++p.volume;
  }
  if (!phase.rounds.empty()) p.phases.push_back(std::move(phase));
  return Schedule(offsets, std::move(p));
}

}  // namespace cartex::cart
