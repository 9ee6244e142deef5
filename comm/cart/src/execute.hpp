// Executing a bound schedule on a call layout, phase by phase with all rounds of a phase in flight
// (Listing 5, ICPP'19), in two ways that move the same blocks in the same rounds:
//   zero-copy: each round is one message described by struct datatypes over absolute addresses
//              (MPI_BOTTOM), so MPI reads and writes the blocks in place;
//   packed:    each round's blocks are copied into one contiguous byte buffer and out again, which
//              is cheaper for small blocks than building and interpreting a struct datatype.
#pragma once

#include <mpi.h>

#include <vector>

#include "bind.hpp"
#include "layout.hpp"

namespace cartex::cart::detail {

// A schedule run phase by phase, blocking (execute) or advanced by non-blocking tests (begin, test):
//
//   state \ event  begin(comm)              test()                                    wait()
//   idle            post phase 0 -> phase 0  true                                      nothing
//   phase k         error (in flight)        requests of k done: finish k, post k + 1  test until idle
//                                            (-> phase k + 1; after the last phase: local copies,
//                                            -> idle, true); else false
// A phase is posted only when the previous one is complete: later phases forward blocks that
// earlier ones received, and every phase reuses the same requests (and, packed, the same buffer).
class PhasedRun {
 public:
  PhasedRun(const BoundSchedule& schedule, const CallLayout& layout);
  virtual ~PhasedRun() = default;
  PhasedRun(const PhasedRun&) = delete;
  PhasedRun& operator=(const PhasedRun&) = delete;
  // Posts the first phase on comm (the local copies at once when there are no phases).
  void begin(MPI_Comm comm);
  // Non-blocking: advances as far as the completed requests allow; true when the run is complete.
  bool test();
  // Blocks until the run is complete.
  void wait();
  // Runs all phases on comm, then the local copies.
  void execute(MPI_Comm comm) {
    begin(comm);
    wait();
  }

 protected:
  // Posts phase k's messages into requests_ (returns how many) and copies its self transfers.
  virtual int post(std::size_t k, MPI_Comm comm) = 0;
  // After phase k's messages completed (packed: unpack the received messages).
  virtual void received(std::size_t) {}

  const BoundSchedule& s_;
  const CallLayout& layout_;
  std::vector<MPI_Request> requests_;

 private:
  // Phase `phase_` is complete: its epilogue, then the next phase or the local copies.
  void advance();

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::size_t phase_ = 0;
  int in_flight_ = 0;
  bool active_ = false;
};

// Zero-copy execution; owns the committed round datatypes.
class ZeroCopyRun final : public PhasedRun {
 public:
  ZeroCopyRun(const BoundSchedule& schedule, const CallLayout& layout);
  ~ZeroCopyRun() override;

 private:
  int post(std::size_t k, MPI_Comm comm) override;
  // Per phase and message: the datatype sent (a struct, or the block's own type when a message
  // carries one block, then owned_ is false and nothing is freed).
  struct Typed {
    void* addr;
    int count;
    MPI_Datatype type;
    bool owned;
  };
  std::vector<std::vector<Typed>> send_;
  std::vector<std::vector<Typed>> recv_;
};

// Packed execution (every block must be contiguous); packs in the arena when given (scratch a
// neighborhood reuses across blocking calls), else in a buffer of its own.
class PackedRun final : public PhasedRun {
 public:
  PackedRun(const BoundSchedule& schedule, const CallLayout& layout, std::vector<char>* arena = nullptr);

 private:
  int post(std::size_t k, MPI_Comm comm) override;
  void received(std::size_t k) override;

  std::vector<std::vector<MPI_Aint>> send_at_, recv_at_, send_bytes_, recv_bytes_;  // per phase, message
  std::vector<char> own_;
  std::vector<char>* buffer_;
};

// Struct datatype over the absolute addresses of blocks (committed; MPI_Type_free it).
MPI_Datatype struct_type(const std::vector<const BufferRegion*>& blocks);

// Copies the transfers of a phase whose partner is this process.
void run_self_copies(const BoundPhase& phase, const CallLayout& layout);

// Copies the schedule's local blocks (zero offset, repeated allgather offsets).
void run_local_copies(const BoundSchedule& schedule, const CallLayout& layout);

}  // namespace cartex::cart::detail
