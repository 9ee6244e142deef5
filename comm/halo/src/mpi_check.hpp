#pragma once
// Internal: every MPI call of comm/halo goes through check_mpi, and communicators it creates are owned.
#include <mpi.h>

#include <utility>

namespace cartex::halo {

// Throws cartex::Error "CALL failed on rank R: MPI's error string" when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* call);

// Owns a communicator (a duplicate or a new topology) and frees it.
class OwnedComm {
 public:
  OwnedComm() = default;
  explicit OwnedComm(MPI_Comm c) : c_(c) {}
  ~OwnedComm();
  OwnedComm(OwnedComm&& o) noexcept : c_(std::exchange(o.c_, MPI_COMM_NULL)) {}
  OwnedComm& operator=(OwnedComm&& o) noexcept {
    std::swap(c_, o.c_);
    return *this;
  }
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  MPI_Comm get() const { return c_; }

 private:
  MPI_Comm c_ = MPI_COMM_NULL;
};

// A private duplicate of `comm` (MPI_Comm_dup): the plan's messages cannot meet anyone else's.
OwnedComm duplicate(MPI_Comm comm);

// The dist-graph communicator of the pattern's existing blocks (in-neighbors in recvs() order,
// out-neighbors in sends() order), built by MPI_Dist_graph_create_adjacent.
struct HaloPattern;
OwnedComm block_graph(const HaloPattern& pattern, MPI_Comm comm);

// Refuses a second start before finish and a finish without start (cartex::Error).
class StartFinish {
 public:
  void start();
  void finish();
  bool active() const { return active_; }

 private:
  bool active_ = false;
};

}  // namespace cartex::halo
