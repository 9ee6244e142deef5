#include "schedule_stats.hpp"

#include <set>

#include "staging/partner_messages.hpp"

namespace cartex::halo {

namespace {

constexpr long kWord = static_cast<long>(sizeof(double));

}  // namespace

HaloStats direct_stats(const HaloPattern& p, int rounds) {
  return {p.send_messages(), p.send_cells() * kWord, rounds};
}

HaloStats partner_stats(const HaloPattern& p, int rounds) {
  return {partner_count(p.sends()), p.send_cells() * kWord, rounds};
}

HaloStats p2p_stats(const HaloPattern& p, const WholePlanes& planes) {
  if (!planes.applies) return partner_stats(p, 1);
  std::vector<BlockPart> packed;  // the parts the planes leave to packing
  long cells = planes.send_cells();
  for (const auto& part : p.sends())
    if (p.blocks[static_cast<size_t>(part.block)].offset[planes.dim] == 0) {
      packed.push_back(part);
      cells += part.cells->size();
    }
  return {partner_count(packed) + static_cast<long>(planes.sends.size()), cells * kWord, 1};
}

HaloStats combining_stats(const HaloPattern& p, const std::vector<long>* slots) {
  HaloStats s;
  for (int d = 0; d < 3; ++d) {
    std::set<int> values;
    for (const auto& b : p.blocks)
      if (b.offset[d] != 0) values.insert(b.offset[d]);
    s.rounds += static_cast<int>(values.size());
  }
  s.messages = s.rounds;
  long cells = 0;
  for (const auto& part : p.sends()) {
    const auto& o = p.blocks[static_cast<size_t>(part.block)].offset;
    const long size = slots ? (*slots)[static_cast<size_t>(part.block)] : static_cast<long>(part.cells->size());
    cells += ((o[0] != 0) + (o[1] != 0) + (o[2] != 0)) * size;
  }
  s.bytes = cells * kWord;
  return s;
}

HaloStats forwarding_stats(const std::vector<ForwardingPhase>& schedule) {
  HaloStats s;
  for (const auto& ph : schedule) {
    if (ph.sends.empty() && ph.recvs.empty()) continue;  // a phase this rank only passes
    ++s.rounds;
    s.messages += static_cast<long>(ph.sends.size());
    for (const auto& m : ph.sends) s.bytes += static_cast<long>(m.cells.size()) * kWord;
  }
  return s;
}

}  // namespace cartex::halo
