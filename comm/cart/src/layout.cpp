// Call layouts: user blocks and temporary slots as absolute addresses with their datatypes.
#include "layout.hpp"

#include <cstring>
#include <vector>

#include "cartex/cart/error.hpp"

namespace cartex::cart::detail {
namespace {

// Datatype facts needed per block.
struct TypeFacts {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Aint extent = 0, true_lb = 0, true_extent = 0;
  int size = 0;
};

TypeFacts query(MPI_Datatype type) {
  TypeFacts f;
  f.type = type;
  MPI_Aint lb = 0;
  check_mpi(MPI_Type_get_extent(type, &lb, &f.extent), "MPI_Type_get_extent");
  check_mpi(MPI_Type_get_true_extent(type, &f.true_lb, &f.true_extent), "MPI_Type_get_true_extent");
  check_mpi(MPI_Type_size(type, &f.size), "MPI_Type_size");
  return f;
}

// Remembers the last type queried within one call (handles may be reused after MPI_Type_free,
// so nothing is kept across calls); regular calls query one type once.
class TypeCache {
 public:
  const TypeFacts& operator()(MPI_Datatype type) {
    if (!valid_ || type != last_.type) {
      last_ = query(type);
      valid_ = true;
    }
    return last_;
  }

 private:
  TypeFacts last_;
  bool valid_ = false;
};

BufferRegion region_of(const void* addr, int count, const TypeFacts& f) {
  BufferRegion b;
  b.addr = static_cast<char*>(const_cast<void*>(addr));
  b.count = count;
  b.type = f.type;
  b.bytes = static_cast<MPI_Aint>(count) * f.size;
  b.span = count > 0 ? static_cast<MPI_Aint>(count - 1) * f.extent + f.true_extent : 0;
  b.data = b.addr + f.true_lb;
  b.contiguous = count <= 0 || (f.size == f.true_extent && (count == 1 || f.extent == f.size));
  return b;
}

constexpr MPI_Aint kAlign = 16;

BufferRegion mk(TypeCache& cache, const void* addr, int count, MPI_Datatype type) {
  return region_of(addr, count, cache(type));
}

// The one predefined type a derived type is built from (e.g. MPI_DOUBLE for an hindexed type of
// doubles), or MPI_BYTE when it mixes several.
MPI_Datatype basic_type(MPI_Datatype type) {
  int ints = 0, addrs = 0, types = 0, combiner = 0;
  check_mpi(MPI_Type_get_envelope(type, &ints, &addrs, &types, &combiner), "MPI_Type_get_envelope");
  if (combiner == MPI_COMBINER_NAMED) return type;
  std::vector<int> iv(static_cast<std::size_t>(ints));
  std::vector<MPI_Aint> av(static_cast<std::size_t>(addrs));
  std::vector<MPI_Datatype> tv(static_cast<std::size_t>(types));
  check_mpi(MPI_Type_get_contents(type, ints, addrs, types, iv.data(), av.data(), tv.data()), "MPI_Type_get_contents");
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  for (MPI_Datatype t : tv) {
    const MPI_Datatype b = basic_type(t);
    int named_ints = 0, named_addrs = 0, named_types = 0, c = 0;
    check_mpi(MPI_Type_get_envelope(t, &named_ints, &named_addrs, &named_types, &c), "MPI_Type_get_envelope");
    if (c != MPI_COMBINER_NAMED) check_mpi(MPI_Type_free(&t), "MPI_Type_free");  // get_contents returned a new handle
    if (basic == MPI_DATATYPE_NULL) basic = b;
    else if (basic != b) basic = MPI_BYTE;
  }
  return basic == MPI_DATATYPE_NULL ? MPI_BYTE : basic;
}

}  // namespace

BufferRegion make_region(const void* addr, int count, MPI_Datatype type) { return region_of(addr, count, query(type)); }

void CallLayout::make_temp(const std::vector<Slot>& mirror, std::vector<char>* arena) {
  temp_.clear();
  temp_.reserve(mirror.size());
  TypeCache facts;
  std::vector<MPI_Aint> offset(mirror.size());
  MPI_Aint total = 0;
  // A slot holds its block's elements contiguously, in the block's predefined element type: the
  // block's own layout may span far more memory than it holds (halo blocks with scratch padding).
  std::vector<MPI_Datatype> element(mirror.size());
  std::vector<int> elements(mirror.size());
  for (std::size_t s = 0; s < mirror.size(); ++s) {
    const BufferRegion& m = at(mirror[s]);
    element[s] = m.count > 0 ? basic_type(m.type) : MPI_BYTE;
    int esize = 1;
    check_mpi(MPI_Type_size(element[s], &esize), "MPI_Type_size");
    elements[s] = static_cast<int>(m.bytes / esize);
    offset[s] = total;
    total += (m.bytes + kAlign - 1) / kAlign * kAlign;
  }
  std::vector<char>& memory = arena != nullptr ? *arena : storage_;
  if (memory.size() < static_cast<std::size_t>(total) + kAlign) memory.resize(static_cast<std::size_t>(total) + kAlign);
  for (std::size_t s = 0; s < mirror.size(); ++s)
    temp_.push_back(mk(facts, memory.data() + offset[s], elements[s], element[s]));
}

void CallLayout::make_temp(int slots, int count, MPI_Datatype type) {
  const TypeFacts f = query(type);
  const BufferRegion proto = region_of(nullptr, count, f);
  const MPI_Aint stride = (proto.span + kAlign - 1) / kAlign * kAlign;
  storage_.assign(static_cast<std::size_t>(stride * slots + kAlign), 0);
  temp_.clear();
  for (int s = 0; s < slots; ++s)
    temp_.push_back(region_of(storage_.data() + stride * s - (proto.data - proto.addr), count, f));
}

const BufferRegion& CallLayout::at(Slot slot) const {
  switch (slot.buffer) {
    case Buffer::send: return send[static_cast<std::size_t>(slot.index)];
    case Buffer::recv: return recv[static_cast<std::size_t>(slot.index)];
    case Buffer::temp: break;
  }
  return temp_[static_cast<std::size_t>(slot.index)];
}

bool CallLayout::all_contiguous() const {
  for (const auto* v : {&send, &recv, &temp_})
    for (const BufferRegion& b : *v)
      if (!b.contiguous) return false;
  return true;
}

double CallLayout::mean_block_bytes() const {
  if (recv.empty()) return 0.0;
  double sum = 0.0;
  for (const BufferRegion& b : recv) sum += static_cast<double>(b.bytes);
  return sum / static_cast<double>(recv.size());
}

CallLayout alltoall_layout(int t, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                           MPI_Datatype rtype) {
  CallLayout l;
  TypeCache facts;
  l.send.reserve(static_cast<std::size_t>(t));
  l.recv.reserve(static_cast<std::size_t>(t));
  const MPI_Aint sext = facts(stype).extent * scount;
  for (int i = 0; i < t; ++i) l.send.push_back(mk(facts, static_cast<const char*>(sbuf) + i * sext, scount, stype));
  const MPI_Aint rext = facts(rtype).extent * rcount;
  for (int i = 0; i < t; ++i) l.recv.push_back(mk(facts, static_cast<char*>(rbuf) + i * rext, rcount, rtype));
  return l;
}

CallLayout alltoallv_layout(int t, const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype,
                            void* rbuf, const int* rcounts, const int* rdispls, MPI_Datatype rtype) {
  CallLayout l;
  TypeCache facts;
  l.send.reserve(static_cast<std::size_t>(t));
  l.recv.reserve(static_cast<std::size_t>(t));
  const MPI_Aint sext = facts(stype).extent;
  for (int i = 0; i < t; ++i)
    l.send.push_back(mk(facts, static_cast<const char*>(sbuf) + sdispls[i] * sext, scounts[i], stype));
  const MPI_Aint rext = facts(rtype).extent;
  for (int i = 0; i < t; ++i)
    l.recv.push_back(mk(facts, static_cast<char*>(rbuf) + rdispls[i] * rext, rcounts[i], rtype));
  return l;
}

CallLayout alltoallw_layout(int t, const void* sbuf, const int* scounts, const MPI_Aint* sdispls,
                            const MPI_Datatype* stypes, void* rbuf, const int* rcounts, const MPI_Aint* rdispls,
                            const MPI_Datatype* rtypes) {
  CallLayout l;
  TypeCache facts;
  l.send.reserve(static_cast<std::size_t>(t));
  l.recv.reserve(static_cast<std::size_t>(t));
  for (int i = 0; i < t; ++i)
    l.send.push_back(mk(facts, static_cast<const char*>(sbuf) + sdispls[i], scounts[i], stypes[i]));
  for (int i = 0; i < t; ++i)
    l.recv.push_back(mk(facts, static_cast<char*>(rbuf) + rdispls[i], rcounts[i], rtypes[i]));
  return l;
}

CallLayout allgather_layout(int t, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                            MPI_Datatype rtype) {
  CallLayout l;
  TypeCache facts;
  l.send.reserve(static_cast<std::size_t>(t));
  l.recv.reserve(static_cast<std::size_t>(t));
  l.send.push_back(mk(facts, sbuf, scount, stype));
  const MPI_Aint rext = facts(rtype).extent * rcount;
  for (int i = 0; i < t; ++i) l.recv.push_back(mk(facts, static_cast<char*>(rbuf) + i * rext, rcount, rtype));
  return l;
}

CallLayout allgatherv_layout(int t, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                             const int* rcounts, const int* displs, MPI_Datatype rtype) {
  CallLayout l;
  TypeCache facts;
  l.send.reserve(static_cast<std::size_t>(t));
  l.recv.reserve(static_cast<std::size_t>(t));
  l.send.push_back(mk(facts, sbuf, scount, stype));
  const MPI_Aint rext = facts(rtype).extent;
  for (int i = 0; i < t; ++i)
    l.recv.push_back(mk(facts, static_cast<char*>(rbuf) + displs[i] * rext, rcounts[i], rtype));
  return l;
}

CallLayout allgatherw_layout(int t, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                             const int* rcounts, const MPI_Aint* displs, const MPI_Datatype* rtypes) {
  CallLayout l;
  TypeCache facts;
  l.send.reserve(static_cast<std::size_t>(t));
  l.recv.reserve(static_cast<std::size_t>(t));
  l.send.push_back(mk(facts, sbuf, scount, stype));
  for (int i = 0; i < t; ++i) l.recv.push_back(mk(facts, static_cast<char*>(rbuf) + displs[i], rcounts[i], rtypes[i]));
  return l;
}

void copy_region(const BufferRegion& from, const BufferRegion& to) {
  if (from.contiguous && to.contiguous) {
    if (from.bytes > 0) std::memcpy(to.data, from.data, static_cast<std::size_t>(from.bytes));
    return;
  }
  // Different layouts: let MPI convert through a self message (any datatypes, same signature).
  check_mpi(MPI_Sendrecv(from.addr, from.count, from.type, 0, 0, to.addr, to.count, to.type, 0, 0, MPI_COMM_SELF,
                         MPI_STATUS_IGNORE),
            "local copy");
}

}  // namespace cartex::cart::detail

