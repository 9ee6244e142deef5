// The buffers of one call: every send, receive and temporary block as (address, count, datatype).
// Built per blocking call, or once per plan; this is the only place user buffers are bound.
#pragma once

#include <mpi.h>

#include <vector>

#include "cartex/cart/schedule.hpp"

namespace cartex::cart::detail {

// Where one block of a buffer lies: count elements of type at addr; data/bytes/contiguous describe
// it as plain bytes.
struct BufferRegion {
  char* addr = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  char* data = nullptr;   // first byte (addr + true lower bound)
  MPI_Aint bytes = 0;     // count * type size
  MPI_Aint span = 0;      // true extent of the count elements
  bool contiguous = true; // the bytes are one contiguous range starting at data
};

// The blocks of one call plus the storage of its temporary slots.
class CallLayout {
 public:
  // Send blocks (allgather: one), receive blocks (t).
  std::vector<BufferRegion> send;
  std::vector<BufferRegion> recv;

  // Places temporary slots copying the layout of the mirrored user blocks, in the arena when given
  // (scratch memory a neighborhood reuses across blocking calls) or in storage of the layout's own.
  void make_temp(const std::vector<Slot>& mirror, std::vector<char>* arena = nullptr);
  // Allocates count temporary (count, datatype) slots for reductions.
  void make_temp(int slots, int count, MPI_Datatype type);
  // The block a slot refers to.
  const BufferRegion& at(Slot slot) const;
  // True when every user and temporary block is contiguous (packed execution possible).
  bool all_contiguous() const;
  // Mean bytes per receive block (the m of the linear model).
  double mean_block_bytes() const;

 private:
  std::vector<BufferRegion> temp_;
  std::vector<char> storage_;
};

// Describes count elements of type at addr (queries the type once per distinct type in a row).
BufferRegion make_region(const void* addr, int count, MPI_Datatype type);

// Layouts of the six collectives (displacements as in the MPI neighborhood collectives).
CallLayout alltoall_layout(int t, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                           MPI_Datatype rtype);
CallLayout alltoallv_layout(int t, const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype,
                            void* rbuf, const int* rcounts, const int* rdispls, MPI_Datatype rtype);
CallLayout alltoallw_layout(int t, const void* sbuf, const int* scounts, const MPI_Aint* sdispls,
                            const MPI_Datatype* stypes, void* rbuf, const int* rcounts, const MPI_Aint* rdispls,
                            const MPI_Datatype* rtypes);
CallLayout allgather_layout(int t, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                            MPI_Datatype rtype);
CallLayout allgatherv_layout(int t, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                             const int* rcounts, const int* displs, MPI_Datatype rtype);
CallLayout allgatherw_layout(int t, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                             const int* rcounts, const MPI_Aint* displs, const MPI_Datatype* rtypes);

// Copies one block into another of the same type signature (memcpy when both are contiguous).
void copy_region(const BufferRegion& from, const BufferRegion& to);

}  // namespace cartex::cart::detail
