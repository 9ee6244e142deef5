#pragma once
// Internal: a halo pattern's blocks coalesced per partner rank (p2p, p2p_persistent): one message per
// distinct partner and direction. The blocks a rank sends itself (periodic dimensions of one process)
// are no message: self_sends()/self_recvs() list them for a field-to-field copy (staging/self_copy.hpp);
// HaloStats still count them as one message, like every backend's self-exchange.
//
// Message layout, the same on both sides. Partners in increasing rank; in the message to (from) a
// partner, its non-empty blocks in increasing block index, each block's cells in the pattern's z, y, x
// order. Sender s sends block i to t exactly when t receives block i from s (t = s + o_i), with the
// same cells, so the receiver's list for s is the sender's list for t, block by block:
//
//   message to partner p:  | block i0 cells | block i1 cells | ... |    i0 < i1 < ... (blocks to p)
//
// On a slab or pencil grid (a process-grid dimension of 1 or 2) several offsets share a partner, so
// 26 blocks of a 27-point stencil become as few as 1 or 2 messages.
#include <vector>

#include "cartex/halo/pattern.hpp"
#include "staging/packed_messages.hpp"

namespace cartex::halo {

// One rank's messages coalesced per partner; the messages point into the owned cell lists.
class PartnerMessages {
 public:
  explicit PartnerMessages(const HaloPattern& p);
  PartnerMessages(const PartnerMessages&) = delete;
  PartnerMessages& operator=(const PartnerMessages&) = delete;

  // One message per other partner with non-empty blocks, in increasing rank, tag 0.
  const std::vector<Message>& sends() const { return sends_; }
  const std::vector<Message>& recvs() const { return recvs_; }
  // The cells this rank sends itself and, cell by cell in the same order, where they go.
  const CellList& self_sends() const { return self_send_; }
  const CellList& self_recvs() const { return self_recv_; }

 private:
  std::vector<CellList> send_cells_, recv_cells_;
  std::vector<Message> sends_, recvs_;
  CellList self_send_, self_recv_;
};

// Distinct partners among the non-empty parts (the coalesced message count).
long partner_count(const std::vector<BlockPart>& parts);

}  // namespace cartex::halo
