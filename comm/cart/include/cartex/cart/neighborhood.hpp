// C++ interface of comm/cart: RAII owners of a Cartesian neighborhood communicator and of
// persistent plans, as thin wrappers over the C interface (cx_cart.h) that throw Error.
#pragma once

#include <mpi.h>

#include <vector>

#include "cartex/cart/cx_cart.h"
#include "cartex/cart/error.hpp"
#include "cartex/cart/schedule.hpp"

namespace cartex::cart {

// Which schedule a neighborhood uses (info key cx_algorithm).
enum class Algorithm { direct, combining, automatic };
// How a combining/direct schedule moves its blocks (info key cx_execution).
enum class Execution { zero_copy, packed, automatic };

// Creation options; each maps to an info key of CX_Cart_neighborhood_create.
struct Options {
  Algorithm algorithm = Algorithm::automatic;
  Execution execution = Execution::automatic;
  bool check_isomorphic = false;  // also on in builds without NDEBUG
  double alpha = 0.0;             // seconds; with beta, replaces the ping-pong measurement
  double beta = 0.0;              // seconds per byte
};

// A plan bound to the buffers of one _init call; frees its datatypes and requests on destruction.
class Plan {
 public:
  explicit Plan(CX_Cart_plan plan) : plan_(plan) {}
  Plan(Plan&& other) noexcept : plan_(other.plan_) { other.plan_ = nullptr; }
  Plan& operator=(Plan&& other) noexcept;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan();
  // Runs the bound collective once (collective, blocking).
  void execute();
  // Posts the collective's first phase (CX_Cart_plan_start); test() or wait() completes it.
  void start();
  // Advances without blocking; true when the collective is complete (CX_Cart_plan_test).
  bool test();
  // Blocks until the started collective is complete (CX_Cart_plan_wait).
  void wait();

 private:
  CX_Cart_plan plan_;
};

// A Cartesian neighborhood: owns the Cartesian communicator, which owns (as an attribute) the
// internal duplicate used for traffic, the cached schedules and the per-process bindings.
class Neighborhood {
 public:
  Neighborhood(MPI_Comm comm, const std::vector<int>& dims, const std::vector<int>& periods,
               const std::vector<int>& offsets, const Options& options = {}, bool reorder = false);
  Neighborhood(Neighborhood&& other) noexcept : comm_(other.comm_) { other.comm_ = MPI_COMM_NULL; }
  Neighborhood& operator=(Neighborhood&& other) noexcept;
  Neighborhood(const Neighborhood&) = delete;
  Neighborhood& operator=(const Neighborhood&) = delete;
  ~Neighborhood();

  // The Cartesian communicator (MPI_COMM_NULL on processes outside the grid).
  MPI_Comm comm() const { return comm_; }
  // Number of offsets t.
  int size() const;
  // The cached schedule of a collective (direct or combining), for metrics.
  const Schedule& schedule(Collective collective, bool combining) const;

  // CX_Cart_alltoall.
  void alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype);
  // CX_Cart_alltoallv.
  void alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                 MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                 MPI_Datatype recvtype);
  // CX_Cart_alltoallw.
  void alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                 const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]);
  // CX_Cart_allgather.
  void allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype);
  // CX_Cart_allgatherv.
  void allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype);
  // CX_Cart_allgatherw.
  void allgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[]);
  // CX_Cart_neighbor_reduce.
  void reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op);
  // CX_Cart_neighbor_scatter_reduce.
  void scatter_reduce(const void* sendbuf, const int sendcounts[], const MPI_Aint senddispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op);

  // CX_Cart_alltoall_init.
  Plan alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype);
  // CX_Cart_alltoallv_init: block i of sendcounts[i] sendtype elements at sdispls[i] (in elements).
  Plan alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                      void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype);
  // CX_Cart_alltoallw_init: block i of sendcounts[i] sendtypes[i] at byte displacement sdispls[i].
  Plan alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]);
  // CX_Cart_allgather_init.
  Plan allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype);

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Throws Error with the CX_Error_string message when rc is not MPI_SUCCESS.
void check_cx(int rc);

}  // namespace cartex::cart
