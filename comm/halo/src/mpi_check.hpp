#pragma once
// Internal: every MPI call of comm/halo goes through check_mpi; the handles it creates are owned.
#include <mpi.h>

#include <utility>
#include <vector>

namespace cartex::halo {

struct HaloPattern;

// Throws cartex::core::Error "CALL failed on rank R: MPI's error string" when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* call);

// Owns one MPI handle (a communicator, a datatype) and frees it with Traits::free unless it is
// Traits::null(); the handle types of comm/halo are below.
template <class Traits>
class Owned {
 public:
  using Handle = typename Traits::Handle;
  Owned() = default;
  explicit Owned(Handle h) : h_(h) {}
  ~Owned() {
    if (h_ != Traits::null()) Traits::free(&h_);  // no check: destructors do not throw
  }
  Owned(Owned&& o) noexcept : h_(std::exchange(o.h_, Traits::null())) {}
  Owned& operator=(Owned&& o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Handle get() const { return h_; }

 private:
  Handle h_ = Traits::null();
};

// A communicator (a duplicate or a new topology), freed by MPI_Comm_free.
struct CommTraits {
  using Handle = MPI_Comm;
  static MPI_Comm null() { return MPI_COMM_NULL; }
  static void free(MPI_Comm* c) { MPI_Comm_free(c); }
};
using OwnedComm = Owned<CommTraits>;

// A committed datatype, freed by MPI_Type_free.
struct TypeTraits {
  using Handle = MPI_Datatype;
  static MPI_Datatype null() { return MPI_DATATYPE_NULL; }
  static void free(MPI_Datatype* t) { MPI_Type_free(t); }
};
using OwnedType = Owned<TypeTraits>;

// A private duplicate of `comm` (MPI_Comm_dup): the plan's messages cannot meet anyone else's.
OwnedComm duplicate(MPI_Comm comm);

// The dist-graph communicator of the pattern's existing blocks (in-neighbors in recvs() order,
// out-neighbors in sends() order), built by MPI_Dist_graph_create_adjacent.
OwnedComm block_graph(const HaloPattern& pattern, MPI_Comm comm);

// The lifecycle of one exchange, shared by every plan; refuses a second start before finish and a
// finish without start (cartex::core::Error):
//
//   state \ event  start          complete()     finish
//   idle            -> in flight   nothing        error
//   in flight       error          -> complete    -> idle
//   complete        error          nothing        -> idle
class StartFinish {
 public:
  void start();
  // The exchange's last message has arrived and been unpacked.
  void complete() {
    if (state_ == State::in_flight) state_ = State::complete;
  }
  void finish();
  // Started and not finished.
  bool active() const { return state_ != State::idle; }
  // Nothing in flight (idle, or complete before finish).
  bool done() const { return state_ != State::in_flight; }

 private:
  enum class State { idle, in_flight, complete };
  State state_ = State::idle;
};

// MPI_Testall of requests[0 .. n) (checked; true for n = 0): true when all are complete.
bool test_all(std::vector<MPI_Request>& requests, size_t n);
// MPI_Waitall of requests[0 .. n) (checked).
void wait_all(std::vector<MPI_Request>& requests, size_t n);

}  // namespace cartex::halo
