// Algorithm 3 of HiPC'17. For each pattern step t (lines 1-19): phase A exchanges this process's
// blocks for the offloaded common neighbors with the friend (lines 3-5); phase B builds and sends
// the combined messages to the onloaded neighbors (lines 6-9) and receives the messages tagged t
// (lines 11-17). The final phase sends to the remaining out-neighbors and receives from the
// remaining in-neighbors (lines 20-23); self loops become local pack/unpack copies there.
#include "schedule.hpp"

#include <numeric>

#include "cartex/graph/error.hpp"
#include "tags.hpp"

namespace cartex::graph::detail {
namespace {

// Staging memory is handed out front to back; every region is written once per call.
class Staging {
 public:
  std::size_t take(std::size_t bytes) {
    const std::size_t at = top_;
    top_ += bytes;
    return at;
  }
  std::size_t size() const { return top_; }

 private:
  std::size_t top_ = 0;
};

class Builder {
 public:
  Builder(const Pattern& p, const CallBlocks& b) : p_(p), b_(b) { check_mpi(MPI_Comm_rank(p.comm(), &me_), "MPI_Comm_rank"); }

  std::vector<Phase> build() {
    const auto friend_sizes = friend_block_sizes();
    const int steps = p_.iterations();
    for (int t = 0; t < steps; ++t) step(t, friend_sizes[static_cast<std::size_t>(t)]);
    final_phase(detail::kTagStepBase + 2 * steps);
    return std::move(phases_);
  }
  std::size_t staging_bytes() const { return staging_.size(); }

 private:
  int payload_bytes(int target) const {
    if (b_.shared_send) return b_.own.bytes;
    int n = 0;
    for (const Piece& x : b_.send_to.at(target)) n += x.bytes;
    return n;
  }
  int received_bytes(int source) const {
    const auto& slots = b_.recv_from.at(source);
    if (b_.replicate_recv) return slots.front().bytes;
    int n = 0;
    for (const Piece& x : slots) n += x.bytes;
    return n;
  }
  // Packs this process's blocks for `target` at `at`.
  void pack_payload(Phase& ph, int target, std::size_t at) const {
    if (b_.shared_send) {
      ph.packs.push_back({b_.own.buf, b_.own.count, b_.own.type, at, b_.own.bytes});
      return;
    }
    for (const Piece& x : b_.send_to.at(target)) {
      ph.packs.push_back({x.buf, x.count, x.type, at, x.bytes});
      at += static_cast<std::size_t>(x.bytes);
    }
  }
  // Unpacks the blocks of `source` staged at `at` into its receive blocks.
  void unpack_from(Phase& ph, int source, std::size_t at) const {
    for (const Piece& x : b_.recv_from.at(source)) {
      ph.unpacks.push_back({at, x.bytes, x.buf, x.count, x.type});
      if (!b_.replicate_recv) at += static_cast<std::size_t>(x.bytes);
    }
  }

  // Sizes of the friend's blocks that phase A of each step delivers (one per onloaded neighbor,
  // or one shared block). The v variants learn them by one hand-shake per friend.
  std::vector<std::vector<int>> friend_block_sizes() const {
    const auto& steps = p_.steps();
    std::vector<std::vector<int>> theirs(steps.size()), mine(steps.size());
    std::vector<MPI_Request> req;
    for (std::size_t t = 0; t < steps.size(); ++t) {
      const Step& s = steps[t];
      if (s.friend_rank < 0) continue;
      if (b_.shared_send) {
        mine[t] = {b_.own.bytes};
        theirs[t] = {b_.own.bytes};
      } else {
        for (int n : s.offloaded) mine[t].push_back(payload_bytes(n));
        theirs[t].assign(s.onloaded.size(), 0);
      }
      if (b_.friend_sizes_known) continue;
      req.emplace_back();
      check_mpi(MPI_Irecv(theirs[t].data(), static_cast<int>(theirs[t].size()), MPI_INT, s.friend_rank, kTagSizes,
                          p_.comm(), &req.back()),
                "MPI_Irecv (friend block sizes)");
      req.emplace_back();
      check_mpi(MPI_Isend(mine[t].data(), static_cast<int>(mine[t].size()), MPI_INT, s.friend_rank, kTagSizes,
                          p_.comm(), &req.back()),
                "MPI_Isend (friend block sizes)");
    }
    check_mpi(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall (friend block sizes)");
    return theirs;
  }

  void step(int t, const std::vector<int>& friend_sizes) {
    const Step& s = p_.steps()[static_cast<std::size_t>(t)];
    const int tag_a = kTagStepBase + 2 * t, tag_b = tag_a + 1;
    Phase a, b;
    if (s.friend_rank >= 0) {
      // Phase A (lines 3-5): this process's blocks for CN_off to the friend, the friend's for CN_on back.
      int out_bytes = 0;
      const std::size_t out = staging_.size();
      if (b_.shared_send) {
        out_bytes = b_.own.bytes;
        pack_payload(a, -1, staging_.take(static_cast<std::size_t>(out_bytes)));
      } else {
        for (int n : s.offloaded) {
          const int k = payload_bytes(n);
          pack_payload(a, n, staging_.take(static_cast<std::size_t>(k)));
          out_bytes += k;
        }
      }
      a.sends.push_back({s.friend_rank, tag_a, out, out_bytes});
      const int in_bytes = std::accumulate(friend_sizes.begin(), friend_sizes.end(), 0);
      const std::size_t in = staging_.take(static_cast<std::size_t>(in_bytes));
      a.recvs.push_back({s.friend_rank, tag_a, in, in_bytes});
      // Phase B (lines 6-9): combined message {own, friend's} to every onloaded neighbor.
      if (b_.shared_send) {
        const int total = b_.own.bytes + in_bytes;
        const std::size_t c = staging_.take(static_cast<std::size_t>(total));
        pack_payload(b, -1, c);
        b.copies.push_back({in, c + static_cast<std::size_t>(b_.own.bytes), static_cast<std::size_t>(in_bytes)});
        for (int n : s.onloaded) b.sends.push_back({n, tag_b, c, total});
      } else {
        std::size_t from = in;
        for (std::size_t k = 0; k < s.onloaded.size(); ++k) {
          const int n = s.onloaded[k], own = payload_bytes(n), theirs = friend_sizes[k];
          const std::size_t c = staging_.take(static_cast<std::size_t>(own + theirs));
          pack_payload(b, n, c);
          b.copies.push_back({from, c + static_cast<std::size_t>(own), static_cast<std::size_t>(theirs)});
          from += static_cast<std::size_t>(theirs);
          b.sends.push_back({n, tag_b, c, own + theirs});
        }
      }
    }
    // Lines 11-17: the messages tagged t, each carrying the sender's and its partner's blocks.
    for (const Incoming& in : s.incoming) {
      const int first = received_bytes(in.sender), second = in.partner >= 0 ? received_bytes(in.partner) : 0;
      const std::size_t at = staging_.take(static_cast<std::size_t>(first + second));
      b.recvs.push_back({in.sender, tag_b, at, first + second});
      unpack_from(b, in.sender, at);
      if (in.partner >= 0) unpack_from(b, in.partner, at + static_cast<std::size_t>(first));
    }
    if (!a.sends.empty()) phases_.push_back(std::move(a));
    if (!b.sends.empty() || !b.recvs.empty()) phases_.push_back(std::move(b));
  }

  void final_phase(int tag) {
    Phase f;
    std::size_t shared = 0;
    if (b_.shared_send && !p_.direct_targets().empty()) {
      shared = staging_.take(static_cast<std::size_t>(b_.own.bytes));
      pack_payload(f, -1, shared);
    }
    for (int n : p_.direct_targets()) {  // lines 20-22
      const int k = payload_bytes(n);
      std::size_t at = shared;
      if (!b_.shared_send) {
        at = staging_.take(static_cast<std::size_t>(k));
        pack_payload(f, n, at);
      }
      f.sends.push_back({n, tag, at, k});
    }
    for (int s : p_.direct_sources()) {  // line 23
      const int k = received_bytes(s);
      const std::size_t at = staging_.take(static_cast<std::size_t>(k));
      f.recvs.push_back({s, tag, at, k});
      unpack_from(f, s, at);
    }
    if (b_.recv_from.count(me_)) {  // self loops: a local pack and unpack
      const std::size_t at = staging_.take(static_cast<std::size_t>(payload_bytes(me_)));
      pack_payload(f, me_, at);
      unpack_from(f, me_, at);
    }
    phases_.push_back(std::move(f));
  }

  const Pattern& p_;
  const CallBlocks& b_;
  int me_ = 0;
  Staging staging_;
  std::vector<Phase> phases_;
};

}  // namespace

std::unique_ptr<Program> build_schedule(const Pattern& pattern, const CallBlocks& blocks,
                                        std::vector<MPI_Datatype> owned_types) {
  Builder builder(pattern, blocks);
  std::vector<Phase> phases = builder.build();
  return std::make_unique<Program>(pattern.comm(), std::move(phases), builder.staging_bytes(), std::move(owned_types));
}

}  // namespace cartex::graph::detail
