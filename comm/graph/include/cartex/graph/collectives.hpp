// Neighbor collectives on a distributed-graph communicator executed with a message-combining
// Pattern (HiPC'17, Algorithm 3). Arguments are those of MPI_Neighbor_allgather(v) and
// MPI_Neighbor_alltoallv; the communicator is the pattern's. Results equal the MPI operations:
// block i of the receive buffer comes from sources()[i], block j of an alltoallv send buffer goes
// to destinations()[j]; repeated edges and self loops are honoured.
//
// Data travel packed (MPI_Pack / MPI_Unpack) in a homogeneous representation: a block of `count`
// elements of `type` occupies count * MPI_Type_size(type) bytes on the wire.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>

#include "cartex/graph/pattern.hpp"

namespace cartex::graph {

namespace detail {
class Program;
}

// A persistent neighbor collective (the paper's "Opt-Persist"): the schedule of Algorithm 3 is built
// once for the buffers, counts and datatypes given at creation; execute() moves whatever those
// buffers hold. Owns duplicates of its datatypes, its persistent requests and its staging memory.
class Plan {
 public:
  Plan(std::shared_ptr<const Pattern> pattern, std::unique_ptr<detail::Program> program);
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  ~Plan();

  // Runs one collective call (blocking: returns when this process's part is complete).
  void execute();
  // Messages this process sends per call.
  int messages() const;
  // Bytes this process sends per call (friend exchanges included).
  std::size_t bytes() const;
  // The pattern the plan executes.
  const Pattern& pattern() const { return *pattern_; }

 private:
  std::shared_ptr<const Pattern> pattern_;
  std::unique_ptr<detail::Program> program_;
};

// Persistent MPI_Neighbor_allgather.
Plan neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, std::shared_ptr<const Pattern> pattern);
// Persistent MPI_Neighbor_allgatherv (recvcounts/displs per source, displs in recvtype extents).
Plan neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                              std::shared_ptr<const Pattern> pattern);
// Persistent MPI_Neighbor_alltoallv (per-destination send blocks, per-source receive blocks).
Plan neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             std::shared_ptr<const Pattern> pattern);

// Blocking MPI_Neighbor_allgather (the paper's "Opt-Nonpersist": Algorithm 3 runs on every call).
void neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, const std::shared_ptr<const Pattern>& pattern);
// Blocking MPI_Neighbor_allgatherv.
void neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         const std::shared_ptr<const Pattern>& pattern);
// Blocking MPI_Neighbor_alltoallv.
void neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        const std::shared_ptr<const Pattern>& pattern);

}  // namespace cartex::graph
