/* cx_cart.h: MPI-style C interface of cartex Cartesian collective communication.
 *
 * Interface of Traeff and Hunold, "Cartesian Collective Communication" (ICPP 2019), Listings 1 and
 * 2, and the reductions of Traeff et al., "Isomorphic, Sparse MPI-like Collective Communication
 * Operations for Parallel Stencil Computations" (EuroMPI 2015), sections 4 and 6. The collectives
 * take exactly the arguments of the MPI neighborhood collectives. Every function returns
 * MPI_SUCCESS or an MPI error class; CX_Error_string gives the message of the last failure.
 * See docs/cart.md for semantics, algorithms and info keys.
 */
#ifndef CARTEX_CART_CX_CART_H
#define CARTEX_CART_CX_CART_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest number of dimensions of a Cartesian neighborhood. */
#define CX_CART_MAX_DIMS 8

/* Longest message returned by CX_Error_string, including the terminating zero. */
#define CX_MAX_ERROR_STRING 512

/* A persistent collective bound to its buffers (created by the _init calls). */
typedef struct CX_Cart_plan_s* CX_Cart_plan;

/* Creates cartcomm, a d-dimensional Cartesian communicator carrying the t relative target offsets
 * (flattened, t*d ints). Collective; weights may be MPI_UNWEIGHTED; info keys in docs/cart.md. */
int CX_Cart_neighborhood_create(MPI_Comm comm, int d, const int dims[], const int periods[], int t,
                                const int targetrelative[], const int* weights, MPI_Info info,
                                int reorder, MPI_Comm* cartcomm);

/* Rank of the process at the given relative offset from the caller, or MPI_PROC_NULL. */
int CX_Cart_relative_rank(MPI_Comm cartcomm, const int relative[], int* rank);

/* Source (caller minus relative) and target (caller plus relative) ranks, MPI_PROC_NULL outside. */
int CX_Cart_relative_shift(MPI_Comm cartcomm, const int relative[], int* inrank, int* outrank);

/* Relative offset of rank from the caller (coordinate differences, no wrapping). */
int CX_Cart_relative_coord(MPI_Comm cartcomm, int rank, int relative[]);

/* Number t of relative neighbors (including MPI_PROC_NULL ones). */
int CX_Cart_neighbor_count(MPI_Comm cartcomm, int* t);

/* In- and out-degree without MPI_PROC_NULL neighbors (arguments of MPI_Dist_graph_create_adjacent). */
int CX_Cart_neighbor_graph_count(MPI_Comm cartcomm, int* indegree, int* outdegree);

/* First maxin sources and maxout targets in neighborhood order, MPI_PROC_NULL included. Weight
 * arrays may be MPI_UNWEIGHTED. */
int CX_Cart_neighbor_get(MPI_Comm cartcomm, int maxin, int sources[], int* sourceweights, int maxout,
                         int targets[], int* targetweights);

/* As CX_Cart_neighbor_get without MPI_PROC_NULL neighbors: feeds MPI_Dist_graph_create_adjacent. */
int CX_Cart_neighbor_graph_get(MPI_Comm cartcomm, int maxin, int sources[], int* sourceweights,
                               int maxout, int targets[], int* targetweights);

/* The collectives: same arguments and buffer conventions as the MPI_Neighbor_ collectives. */
int CX_Cart_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm cartcomm);
/* Irregular allgather: recvcounts and displs (in recvtype extents) per source. */
int CX_Cart_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm cartcomm);
/* Allgather with a datatype and a byte displacement per source (not in MPI). */
int CX_Cart_allgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       const int recvcounts[], const MPI_Aint displs[],
                       const MPI_Datatype recvtypes[], MPI_Comm cartcomm);
/* Personalized exchange: block i goes to target i, block i arrives from source i. */
int CX_Cart_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm cartcomm);
/* Irregular alltoall, displacements in extents of the send/receive type. */
int CX_Cart_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                      MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                      const int rdispls[], MPI_Datatype recvtype, MPI_Comm cartcomm);
/* Alltoall with a datatype and a byte displacement per block (zero-copy halos). */
int CX_Cart_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm cartcomm);

/* Persistent variants: same arguments, plus the plan that is bound to exactly these buffers. */
int CX_Cart_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm cartcomm,
                           CX_Cart_plan* plan);
/* Persistent CX_Cart_allgatherv. */
int CX_Cart_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm cartcomm, CX_Cart_plan* plan);
/* Persistent CX_Cart_allgatherw. */
int CX_Cart_allgatherw_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const MPI_Aint displs[],
                            const MPI_Datatype recvtypes[], MPI_Comm cartcomm, CX_Cart_plan* plan);
/* Persistent CX_Cart_alltoall. */
int CX_Cart_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm cartcomm,
                          CX_Cart_plan* plan);
/* Persistent CX_Cart_alltoallv. */
int CX_Cart_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm cartcomm,
                           CX_Cart_plan* plan);
/* Persistent CX_Cart_alltoallw. */
int CX_Cart_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                           MPI_Comm cartcomm, CX_Cart_plan* plan);

/* Runs a plan once (collective, blocking); may be called any number of times. */
int CX_Cart_plan_execute(CX_Cart_plan plan);

/* Non-blocking run of a plan, phase by phase (a combining schedule has one phase per dimension):
   start posts the first phase; test advances as far as the completed messages allow (unpacking a
   finished phase and posting the next) and sets *flag to 1 when the run is complete; wait blocks
   until then. Every process must start the same plans in the same order, and one plan of a
   neighborhood is in flight at a time; starting a plan still in flight is MPI_ERR_REQUEST. */
int CX_Cart_plan_start(CX_Cart_plan plan);
int CX_Cart_plan_test(CX_Cart_plan plan, int* flag);
int CX_Cart_plan_wait(CX_Cart_plan plan);

/* Frees a plan's datatypes, buffers and requests; sets *plan to NULL. */
int CX_Cart_plan_free(CX_Cart_plan* plan);

/* Every process sends its vector to all targets and receives op over the vectors of its sources
 * (EuroMPI'15 section 4, commutative op). */
int CX_Cart_neighbor_reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm cartcomm);

/* As CX_Cart_neighbor_reduce with a different vector per target (EuroMPI'15 section 6 signature). */
int CX_Cart_neighbor_scatter_reduce(const void* sendbuf, const int sendcounts[],
                                    const MPI_Aint senddispls[], const MPI_Datatype sendtypes[],
                                    void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm cartcomm);

/* Message of the last failed CX_ call of this thread (empty after success); like MPI_Error_string. */
int CX_Error_string(char* string, int* resultlen);

#ifdef __cplusplus
}
#endif

#endif /* CARTEX_CART_CX_CART_H */
