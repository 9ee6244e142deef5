#include "staging/partner_messages.hpp"

#include <map>
#include <set>

namespace cartex::halo {

namespace {

// The cells of the non-empty parts, concatenated per partner (parts come in block order, and the
// map keeps partners in increasing rank).
std::map<int, CellList> group(const std::vector<BlockPart>& parts) {
  std::map<int, CellList> out;
  for (const auto& p : parts)
    if (!p.cells->empty()) out[p.rank].append(*p.cells);
  return out;
}

// Moves the grouped cells into `cells` and lists one message per partner pointing at them; the
// cells of partner `self` go to `own` instead.
void fill(std::map<int, CellList> grouped, int self, std::vector<CellList>& cells, std::vector<Message>& messages,
          CellList& own) {
  cells.reserve(grouped.size());  // no reallocation: the messages point into it
  for (auto& [rank, c] : grouped) {
    if (rank == self) {
      own = std::move(c);
      continue;
    }
    cells.push_back(std::move(c));
    messages.push_back({rank, 0, &cells.back()});
  }
}

}  // namespace

PartnerMessages::PartnerMessages(const HaloPattern& p) {
  fill(group(p.sends()), p.rank, send_cells_, sends_, self_send_);
  fill(group(p.recvs()), p.rank, recv_cells_, recvs_, self_recv_);
}

long partner_count(const std::vector<BlockPart>& parts) {
  std::set<int> ranks;
  for (const auto& p : parts)
    if (!p.cells->empty()) ranks.insert(p.rank);
  return static_cast<long>(ranks.size());
}

}  // namespace cartex::halo
