/* The C interface used from C: a periodic 2-d Moore neighborhood, relative helpers, alltoall and
 * allgather (blocking and plan), checked against the analytically expected values. Exits non-zero
 * on every process if any process found an error. */
#include <stdio.h>

#include "cartex/cart/cx_cart.h"
#include "cartex/core/leak_check.h"

static int failures = 0;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                          \
    }                                                                      \
  } while (0)

int main(int argc, char** argv) {
  cartex_untracked_allocations_begin();
  MPI_Init(&argc, &argv);
  cartex_untracked_allocations_end();
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int dims[2] = {0, 0};
  const int periods[2] = {1, 1};
  MPI_Dims_create(p, 2, dims);
  const int offsets[16] = {-1, -1, -1, 0, -1, 1, 0, -1, 0, 1, 1, -1, 1, 0, 1, 1};
  MPI_Comm cart = MPI_COMM_NULL;
  CHECK(CX_Cart_neighborhood_create(MPI_COMM_WORLD, 2, dims, periods, 8, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                    &cart) == MPI_SUCCESS);
  int t = 0;
  CHECK(CX_Cart_neighbor_count(cart, &t) == MPI_SUCCESS && t == 8);
  int sources[8], targets[8];
  CHECK(CX_Cart_neighbor_get(cart, 8, sources, MPI_UNWEIGHTED, 8, targets, MPI_UNWEIGHTED) == MPI_SUCCESS);
  for (int i = 0; i < 8; ++i) {
    int in = -1, out = -1, rel[2];
    CHECK(CX_Cart_relative_shift(cart, offsets + 2 * i, &in, &out) == MPI_SUCCESS);
    CHECK(in == sources[i] && out == targets[i]);
    CHECK(CX_Cart_relative_rank(cart, offsets + 2 * i, &out) == MPI_SUCCESS && out == targets[i]);
    CHECK(CX_Cart_relative_coord(cart, rank, rel) == MPI_SUCCESS && rel[0] == 0 && rel[1] == 0);
  }
  int send[8], recv[8], one = 100 + rank;
  for (int i = 0; i < 8; ++i) send[i] = 1000 * rank + i;
  CHECK(CX_Cart_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart) == MPI_SUCCESS);
  for (int i = 0; i < 8; ++i) CHECK(recv[i] == 1000 * sources[i] + i);
  CX_Cart_plan plan = NULL;
  CHECK(CX_Cart_allgather_init(&one, 1, MPI_INT, recv, 1, MPI_INT, cart, &plan) == MPI_SUCCESS);
  CHECK(CX_Cart_plan_execute(plan) == MPI_SUCCESS);
  for (int i = 0; i < 8; ++i) CHECK(recv[i] == 100 + sources[i]);
  CHECK(CX_Cart_plan_free(&plan) == MPI_SUCCESS && plan == NULL);
  int sum = 0;
  CHECK(CX_Cart_neighbor_reduce(&one, &sum, 1, MPI_INT, MPI_SUM, cart) == MPI_SUCCESS);
  int expected = 0;
  for (int i = 0; i < 8; ++i) expected += 100 + sources[i];
  CHECK(sum == expected);
  /* An error is reported with a class and a message. */
  char text[CX_MAX_ERROR_STRING];
  int len = 0;
  CHECK(CX_Cart_alltoall(send, -1, MPI_INT, recv, 1, MPI_INT, cart) == MPI_ERR_COUNT);
  CHECK(CX_Error_string(text, &len) == MPI_SUCCESS && len > 0);
  MPI_Comm_free(&cart);
  int any = 0;
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  cartex_check_leaks_now();
  MPI_Finalize();
  return any != 0;
}
