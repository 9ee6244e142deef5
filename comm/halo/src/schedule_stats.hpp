#pragma once
// Internal: the stats of the exchange schedules, computed from the pattern alone (no communication),
// shared by the backends that run the same schedule.
#include <vector>

#include "cartex/halo/forwarding.hpp"
#include "cartex/halo/pattern.hpp"
#include "cartex/halo/plan.hpp"
#include "staging/whole_planes.hpp"

namespace cartex::halo {

// One message per non-empty block to an existing target, in `rounds` rounds.
HaloStats direct_stats(const HaloPattern& p, int rounds);

// One message per partner rank (the rank itself included) with non-empty blocks, in `rounds` rounds;
// bytes as direct_stats (p2p's coalesced messages, staging/partner_messages.hpp).
HaloStats partner_stats(const HaloPattern& p, int rounds);

// p2p's: partner_stats of the blocks the whole planes leave to packing, plus one message per plane
// range with its cells (staging/whole_planes.hpp).
HaloStats p2p_stats(const HaloPattern& p, const WholePlanes& planes);

// Message combining (ICPP'19 Algorithm 1): one round and one message per distinct non-zero coordinate
// per dimension (C = sum_k C_k), block i sent once per non-zero coordinate (V = sum_i z_i,
// Proposition 3.2); blocks padded to `slots` (uniform sizes per block index) when given.
HaloStats combining_stats(const HaloPattern& p, const std::vector<long>* slots = nullptr);

// The forwarding schedule's phases: one round each, its messages and cells.
HaloStats forwarding_stats(const std::vector<ForwardingPhase>& schedule);

// The stats of one field's exchange for `fields` fields exchanged together: the same messages and
// rounds, `fields` times the bytes (every backend combines the fields into the messages of one).
inline HaloStats for_fields(HaloStats s, int fields) {
  s.bytes *= fields;
  return s;
}

}  // namespace cartex::halo
