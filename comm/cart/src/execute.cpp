// Schedule execution: zero-copy (Listing 5 with struct datatypes, ICPP'19 section 3) and packed.
#include "execute.hpp"

#include <algorithm>
#include <cstring>

#include "cartex/cart/error.hpp"

namespace cartex::cart::detail {

MPI_Datatype struct_type(const std::vector<const Block*>& blocks) {
  const int n = static_cast<int>(blocks.size());
  std::vector<int> lengths(blocks.size());
  std::vector<MPI_Aint> displs(blocks.size());
  std::vector<MPI_Datatype> types(blocks.size());
  for (int j = 0; j < n; ++j) {
    const Block& b = *blocks[static_cast<std::size_t>(j)];
    lengths[static_cast<std::size_t>(j)] = b.count;
    check_mpi(MPI_Get_address(b.addr, &displs[static_cast<std::size_t>(j)]), "MPI_Get_address");
    types[static_cast<std::size_t>(j)] = b.type;
  }
  MPI_Datatype t = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_create_struct(n, lengths.data(), displs.data(), types.data(), &t), "MPI_Type_create_struct");
  check_mpi(MPI_Type_commit(&t), "MPI_Type_commit");
  return t;
}

namespace {

MPI_Datatype round_type(const std::vector<Slot>& slots, const CallLayout& layout) {
  std::vector<const Block*> blocks;
  blocks.reserve(slots.size());
  for (Slot s : slots) blocks.push_back(&layout.at(s));
  return struct_type(blocks);
}

std::size_t max_rounds(const BoundSchedule& s) {
  std::size_t m = 0;
  for (const BoundPhase& p : s.phases) m = std::max(m, p.rounds.size());
  return m;
}

}  // namespace

ZeroCopyRun::ZeroCopyRun(const BoundSchedule& schedule, const CallLayout& layout)
    : s_(schedule), layout_(layout), requests_(2 * max_rounds(schedule)) {
  for (const BoundPhase& p : s_.phases) {
    send_types_.emplace_back();
    recv_types_.emplace_back();
    for (const BoundRound& r : p.rounds) {
      send_types_.back().push_back(r.send.empty() ? MPI_DATATYPE_NULL : round_type(r.send, layout_));
      recv_types_.back().push_back(r.recv.empty() ? MPI_DATATYPE_NULL : round_type(r.recv, layout_));
    }
  }
}

ZeroCopyRun::~ZeroCopyRun() {
  for (auto* all : {&send_types_, &recv_types_})
    for (auto& phase : *all)
      for (MPI_Datatype& t : phase)
        if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
}

void ZeroCopyRun::execute(MPI_Comm comm) {
  for (std::size_t k = 0; k < s_.phases.size(); ++k) {
    const auto& rounds = s_.phases[k].rounds;
    int n = 0;
    // Listing 5: all receives and sends of a phase are posted before waiting.
    for (std::size_t j = 0; j < rounds.size(); ++j)
      if (rounds[j].recv_rank != MPI_PROC_NULL)
        check_mpi(MPI_Irecv(MPI_BOTTOM, 1, recv_types_[k][j], rounds[j].recv_rank, rounds[j].tag, comm, &requests_[n++]),
                  "MPI_Irecv");
    for (std::size_t j = 0; j < rounds.size(); ++j)
      if (rounds[j].send_rank != MPI_PROC_NULL)
        check_mpi(MPI_Isend(MPI_BOTTOM, 1, send_types_[k][j], rounds[j].send_rank, rounds[j].tag, comm, &requests_[n++]),
                  "MPI_Isend");
    check_mpi(MPI_Waitall(n, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }
  run_local_copies(s_, layout_);
}

PackedRun::PackedRun(const BoundSchedule& schedule, const CallLayout& layout)
    : s_(schedule), layout_(layout), requests_(2 * max_rounds(schedule)) {
  MPI_Aint largest = 0;
  for (const BoundPhase& p : s_.phases) {
    // Every round of a phase gets its own send and receive region of one shared buffer.
    MPI_Aint at = 0;
    send_at_.emplace_back();
    recv_at_.emplace_back();
    send_bytes_.emplace_back();
    recv_bytes_.emplace_back();
    for (const BoundRound& r : p.rounds) {
      MPI_Aint sb = 0, rb = 0;
      for (Slot s : r.send) sb += layout_.at(s).bytes;
      for (Slot s : r.recv) rb += layout_.at(s).bytes;
      send_at_.back().push_back(at);
      send_bytes_.back().push_back(sb);
      at += sb;
      recv_at_.back().push_back(at);
      recv_bytes_.back().push_back(rb);
      at += rb;
    }
    largest = std::max(largest, at);
  }
  buffer_.resize(static_cast<std::size_t>(largest) + 1);
}

void PackedRun::execute(MPI_Comm comm) {
  char* buf = buffer_.data();
  for (std::size_t k = 0; k < s_.phases.size(); ++k) {
    const auto& rounds = s_.phases[k].rounds;
    int n = 0;
    for (std::size_t j = 0; j < rounds.size(); ++j)
      if (rounds[j].recv_rank != MPI_PROC_NULL)
        check_mpi(MPI_Irecv(buf + recv_at_[k][j], static_cast<int>(recv_bytes_[k][j]), MPI_BYTE, rounds[j].recv_rank,
                            rounds[j].tag, comm, &requests_[n++]),
                  "MPI_Irecv");
    for (std::size_t j = 0; j < rounds.size(); ++j) {
      if (rounds[j].send_rank == MPI_PROC_NULL) continue;
      char* out = buf + send_at_[k][j];
      for (Slot s : rounds[j].send) {
        const Block& b = layout_.at(s);
        std::memcpy(out, b.data, static_cast<std::size_t>(b.bytes));
        out += b.bytes;
      }
      check_mpi(MPI_Isend(buf + send_at_[k][j], static_cast<int>(send_bytes_[k][j]), MPI_BYTE, rounds[j].send_rank,
                          rounds[j].tag, comm, &requests_[n++]),
                "MPI_Isend");
    }
    check_mpi(MPI_Waitall(n, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (std::size_t j = 0; j < rounds.size(); ++j) {
      if (rounds[j].recv_rank == MPI_PROC_NULL) continue;
      const char* in = buf + recv_at_[k][j];
      for (Slot s : rounds[j].recv) {
        const Block& b = layout_.at(s);
        std::memcpy(b.data, in, static_cast<std::size_t>(b.bytes));
        in += b.bytes;
      }
    }
  }
  run_local_copies(s_, layout_);
}

void run_local_copies(const BoundSchedule& schedule, const CallLayout& layout) {
  for (std::size_t c = 0; c < schedule.copy_from.size(); ++c)
    copy_block(layout.at(schedule.copy_from[c]), layout.at(schedule.copy_to[c]));
}

}  // namespace cartex::cart::detail
