// Bad input returns an MPI error class and a message on every process, without deadlock: t or an
// offset differing between processes (isomorphism check), d < 1, negative counts (also on one
// process only), non-Cartesian communicators, non-commutative ops, bad info values.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/cart/cx_cart.h"
#include "cartex/cart/neighborhood_families.hpp"
#include "mpi_world.hpp"

namespace {

std::string message() {
  char text[CX_MAX_ERROR_STRING];
  int len = 0;
  CX_Error_string(text, &len);
  return std::string(text, static_cast<std::size_t>(len));
}

using cartex::test::world_rank;
using cartex::test::world_size;

MPI_Info checking() {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cx_check_isomorphic", "true");
  return info;
}

}  // namespace

TEST(CartErrors, DifferentTIsReportedEverywhere) {
  if (world_size() < 2) GTEST_SKIP() << "needs two processes";
  const int p = world_size();
  const std::vector<int> offsets = {1, 0, -1, 0, 0, 1};
  const int t = world_rank() == 1 ? 2 : 3;
  MPI_Info info = checking();
  MPI_Comm comm = MPI_COMM_NULL;
  const int dims[] = {p}, periods[] = {1};
  const int rc = CX_Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, t, offsets.data(), MPI_UNWEIGHTED,
                                             info, 0, &comm);
  MPI_Info_free(&info);
  EXPECT_EQ(rc, MPI_ERR_ARG);
  EXPECT_EQ(comm, MPI_COMM_NULL);
  EXPECT_NE(message().find("t differs"), std::string::npos) << message();
  EXPECT_NE(message().find("index 2"), std::string::npos) << message();
}

TEST(CartErrors, DifferentOffsetIsNamed) {
  if (world_size() < 2) GTEST_SKIP() << "needs two processes";
  const int p = world_size();
  std::vector<int> offsets = {1, -1, 2, -2};
  if (world_rank() == p - 1) offsets[2] = 3;
  MPI_Info info = checking();
  MPI_Comm comm = MPI_COMM_NULL;
  const int dims[] = {p}, periods[] = {1};
  EXPECT_EQ(CX_Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 4, offsets.data(), MPI_UNWEIGHTED, info, 0,
                                        &comm),
            MPI_ERR_ARG);
  MPI_Info_free(&info);
  EXPECT_NE(message().find("index 2, rank 0 has (2)"), std::string::npos) << message();
}

TEST(CartErrors, BadDimensions) {
  MPI_Comm comm = MPI_COMM_NULL;
  const int dims[] = {1}, periods[] = {1}, offsets[] = {1};
  EXPECT_EQ(CX_Cart_neighborhood_create(MPI_COMM_WORLD, 0, dims, periods, 1, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                        &comm),
            MPI_ERR_DIMS);
  EXPECT_NE(message().find("d = 0"), std::string::npos) << message();
  // d < 1 on one process only: the others learn of it instead of hanging in MPI_Cart_create.
  const int p = world_size();
  const int dims2[] = {p};
  const int d = world_rank() == 0 ? -1 : 1;
  const int rc = CX_Cart_neighborhood_create(MPI_COMM_WORLD, d, dims2, periods, 1, offsets, MPI_UNWEIGHTED,
                                             MPI_INFO_NULL, 0, &comm);
  EXPECT_EQ(rc, world_rank() == 0 ? MPI_ERR_DIMS : MPI_ERR_ARG);
}

TEST(CartErrors, NegativeCountsWithoutDeadlock) {
  const int p = world_size();
  const std::vector<int> offsets = cartex::cart::moore_offsets(1, 1);
  MPI_Info info = checking();
  MPI_Comm comm = MPI_COMM_NULL;
  const int dims[] = {p}, periods[] = {0};
  ASSERT_EQ(CX_Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 2, offsets.data(), MPI_UNWEIGHTED, info, 0,
                                        &comm),
            MPI_SUCCESS);
  MPI_Info_free(&info);
  int send[4] = {0}, recv[4] = {0};
  EXPECT_EQ(CX_Cart_alltoall(send, -1, MPI_INT, recv, 1, MPI_INT, comm), MPI_ERR_COUNT);
  EXPECT_NE(message().find("negative"), std::string::npos) << message();
  // Negative on the last process only: it gets MPI_ERR_COUNT, the others MPI_ERR_OTHER.
  const int count = world_rank() == p - 1 ? -2 : 1;
  const int rc = CX_Cart_allgather(send, count, MPI_INT, recv, 1, MPI_INT, comm);
  EXPECT_EQ(rc, world_rank() == p - 1 ? MPI_ERR_COUNT : MPI_ERR_OTHER);
  const int counts[2] = {1, -1}, displs[2] = {0, 1};
  EXPECT_EQ(CX_Cart_alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, comm), MPI_ERR_COUNT);
  // The neighborhood still works afterwards.
  EXPECT_EQ(CX_Cart_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm), MPI_SUCCESS);
  MPI_Comm_free(&comm);
}

TEST(CartErrors, NonCartesianCommunicator) {
  int send[2] = {0}, recv[2] = {0}, rank = 0;
  const int rel[1] = {1};
  EXPECT_EQ(CX_Cart_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TOPOLOGY);
  EXPECT_NE(message().find("not created by CX_Cart_neighborhood_create"), std::string::npos) << message();
  EXPECT_EQ(CX_Cart_relative_rank(MPI_COMM_WORLD, rel, &rank), MPI_ERR_TOPOLOGY);
  EXPECT_EQ(CX_Cart_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
  // A plain MPI Cartesian communicator supports the relative helpers but not the collectives.
  MPI_Comm cart;
  const int dims[] = {world_size()}, periods[] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  int in = 0, out = 0;
  EXPECT_EQ(CX_Cart_relative_shift(cart, rel, &in, &out), MPI_SUCCESS);
  EXPECT_EQ(out, (world_rank() + 1) % world_size());
  EXPECT_EQ(CX_Cart_allgather(send, 1, MPI_INT, recv, 1, MPI_INT, cart), MPI_ERR_TOPOLOGY);
  MPI_Comm_free(&cart);
}

namespace {

void first_only(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] = static_cast<int*>(in)[i];
}

}  // namespace

TEST(CartErrors, NonCommutativeOpAndBadInfo) {
  const int dims[] = {world_size()}, periods[] = {1}, offsets[] = {1, -1};
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cx_algorithm", "fastest");
  EXPECT_EQ(CX_Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 2, offsets, MPI_UNWEIGHTED, info, 0, &comm),
            MPI_ERR_INFO_VALUE);
  EXPECT_NE(message().find("cx_algorithm"), std::string::npos) << message();
  MPI_Info_free(&info);
  ASSERT_EQ(CX_Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 2, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                        &comm),
            MPI_SUCCESS);
  MPI_Op op;
  MPI_Op_create(first_only, 0, &op);
  int send = 1, recv = 0;
  EXPECT_EQ(CX_Cart_neighbor_reduce(&send, &recv, 1, MPI_INT, op, comm), MPI_ERR_OP);
  EXPECT_NE(message().find("commutative"), std::string::npos) << message();
  MPI_Op_free(&op);
  // Packed execution cannot carry non-contiguous blocks.
  MPI_Comm packed = MPI_COMM_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cx_execution", "packed");
  ASSERT_EQ(CX_Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 2, offsets, MPI_UNWEIGHTED, info, 0, &packed),
            MPI_SUCCESS);
  MPI_Info_free(&info);
  MPI_Datatype strided;
  MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  int buf[16] = {0}, out[16] = {0};
  EXPECT_EQ(CX_Cart_alltoall(buf, 1, strided, out, 2, MPI_INT, packed), MPI_ERR_TYPE);
  MPI_Type_free(&strided);
  MPI_Comm_free(&packed);
  MPI_Comm_free(&comm);
}
