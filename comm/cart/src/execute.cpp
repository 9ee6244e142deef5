// Schedule execution: zero-copy (Listing 5 with struct datatypes, ICPP'19 section 3) and packed.
#include "execute.hpp"

#include <algorithm>
#include <cstring>

#include "cartex/cart/error.hpp"

namespace cartex::cart::detail {

MPI_Datatype struct_type(const std::vector<const BufferRegion*>& blocks) {
  const int n = static_cast<int>(blocks.size());
  std::vector<int> lengths(blocks.size());
  std::vector<MPI_Aint> displs(blocks.size());
  std::vector<MPI_Datatype> types(blocks.size());
  for (int j = 0; j < n; ++j) {
    const BufferRegion& b = *blocks[static_cast<std::size_t>(j)];
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

std::size_t max_messages(const BoundSchedule& s) {
  std::size_t m = 0;
  for (const BoundPhase& p : s.phases) m = std::max(m, p.sends.size() + p.recvs.size());
  return m;
}

}  // namespace

PhasedRun::PhasedRun(const BoundSchedule& schedule, const CallLayout& layout)
    : s_(schedule), layout_(layout), requests_(max_messages(schedule), MPI_REQUEST_NULL) {}

void PhasedRun::begin(MPI_Comm comm) {
  if (active_) throw Error(MPI_ERR_REQUEST, "plan started while its previous run is still in flight");
  comm_ = comm;
  phase_ = 0;
  active_ = true;
  if (s_.phases.empty()) {
    advance();
    return;
  }
  in_flight_ = post(0, comm_);
}

bool PhasedRun::test() {
  while (active_) {
    int flag = 1;
    // Open MPI refuses a null request array even for a count of 0.
    if (in_flight_ > 0) check_mpi(MPI_Testall(in_flight_, requests_.data(), &flag, MPI_STATUSES_IGNORE), "MPI_Testall");
    if (!flag) return false;
    advance();
  }
  return true;
}

void PhasedRun::wait() {
  while (active_) {
    if (in_flight_ > 0) check_mpi(MPI_Waitall(in_flight_, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    advance();
  }
}

void PhasedRun::advance() {
  if (!s_.phases.empty()) received(phase_);
  in_flight_ = 0;
  if (!s_.phases.empty() && ++phase_ < s_.phases.size()) {
    in_flight_ = post(phase_, comm_);
    return;
  }
  run_local_copies(s_, layout_);
  active_ = false;
}

ZeroCopyRun::ZeroCopyRun(const BoundSchedule& schedule, const CallLayout& layout) : PhasedRun(schedule, layout) {
  auto typed = [&](const Message& m) {
    if (m.slots.size() == 1) {
      // One block: send it with its own datatype, no struct needed.
      const BufferRegion& b = layout_.at(m.slots[0]);
      return Typed{b.addr, b.count, b.type, false};
    }
    std::vector<const BufferRegion*> blocks;
    blocks.reserve(m.slots.size());
    for (Slot s : m.slots) blocks.push_back(&layout_.at(s));
    return Typed{MPI_BOTTOM, 1, struct_type(blocks), true};
  };
  for (const BoundPhase& p : s_.phases) {
    send_.emplace_back();
    recv_.emplace_back();
    for (const Message& m : p.sends) send_.back().push_back(typed(m));
    for (const Message& m : p.recvs) recv_.back().push_back(typed(m));
  }
}

ZeroCopyRun::~ZeroCopyRun() {
  for (auto* all : {&send_, &recv_})
    for (auto& phase : *all)
      for (Typed& t : phase)
        if (t.owned) check_mpi_nothrow(MPI_Type_free(&t.type), "MPI_Type_free");
}

int ZeroCopyRun::post(std::size_t k, MPI_Comm comm) {
  const BoundPhase& phase = s_.phases[k];
  int n = 0;
  // Listing 5: all receives and sends of a phase are posted before waiting.
  for (std::size_t j = 0; j < phase.recvs.size(); ++j) {
    const Typed& t = recv_[k][j];
    check_mpi(MPI_Irecv(t.addr, t.count, t.type, phase.recvs[j].rank, phase.recvs[j].tag, comm, &requests_[n++]),
              "MPI_Irecv");
  }
  for (std::size_t j = 0; j < phase.sends.size(); ++j) {
    const Typed& t = send_[k][j];
    check_mpi(MPI_Isend(t.addr, t.count, t.type, phase.sends[j].rank, phase.sends[j].tag, comm, &requests_[n++]),
              "MPI_Isend");
  }
  run_self_copies(phase, layout_);
  return n;
}

PackedRun::PackedRun(const BoundSchedule& schedule, const CallLayout& layout, std::vector<char>* arena)
    : PhasedRun(schedule, layout), buffer_(arena != nullptr ? arena : &own_) {
  MPI_Aint largest = 0;
  for (const BoundPhase& p : s_.phases) {
    // Every message of a phase gets its own region of one shared buffer.
    MPI_Aint at = 0;
    auto regions = [&](const std::vector<Message>& list, std::vector<MPI_Aint>& where, std::vector<MPI_Aint>& bytes) {
      for (const Message& m : list) {
        MPI_Aint total = 0;
        for (Slot s : m.slots) total += layout_.at(s).bytes;
        where.push_back(at);
        bytes.push_back(total);
        at += total;
      }
    };
    send_at_.emplace_back();
    send_bytes_.emplace_back();
    recv_at_.emplace_back();
    recv_bytes_.emplace_back();
    regions(p.sends, send_at_.back(), send_bytes_.back());
    regions(p.recvs, recv_at_.back(), recv_bytes_.back());
    largest = std::max(largest, at);
  }
  if (buffer_->size() < static_cast<std::size_t>(largest) + 1) buffer_->resize(static_cast<std::size_t>(largest) + 1);
}

int PackedRun::post(std::size_t k, MPI_Comm comm) {
  char* buf = buffer_->data();
  const BoundPhase& phase = s_.phases[k];
  int n = 0;
  for (std::size_t j = 0; j < phase.recvs.size(); ++j) {
    // A single block needs no unpacking: receive it in place.
    const bool direct = phase.recvs[j].slots.size() == 1;
    char* at = direct ? layout_.at(phase.recvs[j].slots[0]).data : buf + recv_at_[k][j];
    check_mpi(MPI_Irecv(at, static_cast<int>(recv_bytes_[k][j]), MPI_BYTE, phase.recvs[j].rank, phase.recvs[j].tag,
                        comm, &requests_[n++]),
              "MPI_Irecv");
  }
  for (std::size_t j = 0; j < phase.sends.size(); ++j) {
    const auto& slots = phase.sends[j].slots;
    char* at = slots.size() == 1 ? layout_.at(slots[0]).data : buf + send_at_[k][j];
    if (slots.size() != 1) {
      char* out = at;
      for (Slot s : slots) {
        const BufferRegion& b = layout_.at(s);
        std::memcpy(out, b.data, static_cast<std::size_t>(b.bytes));
        out += b.bytes;
      }
    }
    check_mpi(MPI_Isend(at, static_cast<int>(send_bytes_[k][j]), MPI_BYTE, phase.sends[j].rank, phase.sends[j].tag,
                        comm, &requests_[n++]),
              "MPI_Isend");
  }
  run_self_copies(phase, layout_);
  return n;
}

void PackedRun::received(std::size_t k) {
  const char* buf = buffer_->data();
  const BoundPhase& phase = s_.phases[k];
  for (std::size_t j = 0; j < phase.recvs.size(); ++j) {
    if (phase.recvs[j].slots.size() == 1) continue;
    const char* in = buf + recv_at_[k][j];
    for (Slot s : phase.recvs[j].slots) {
      const BufferRegion& b = layout_.at(s);
      std::memcpy(b.data, in, static_cast<std::size_t>(b.bytes));
      in += b.bytes;
    }
  }
}

void run_self_copies(const BoundPhase& phase, const CallLayout& layout) {
  for (std::size_t c = 0; c < phase.self_from.size(); ++c)
    copy_region(layout.at(phase.self_from[c]), layout.at(phase.self_to[c]));
}

void run_local_copies(const BoundSchedule& schedule, const CallLayout& layout) {
  for (std::size_t c = 0; c < schedule.copy_from.size(); ++c)
    copy_region(layout.at(schedule.copy_from[c]), layout.at(schedule.copy_to[c]));
}

}  // namespace cartex::cart::detail
