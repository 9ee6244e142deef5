// Neighborhood reductions (EuroMPI'15 sections 4 and 6), direct and combining, against
// MPI_Neighbor_allgather / MPI_Neighbor_alltoall on the equivalent dist graph plus a local
// reduction over the received vectors. Processes without any existing source keep their buffer.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cartex/cart/cx_cart.h"
#include "mpi_world.hpp"
#include "support.hpp"

namespace {

using carttest::value;
constexpr int kCount = 3;
constexpr int kSentinel = -7;

int apply(MPI_Op op, int a, int b) { return op == MPI_SUM ? a + b : std::max(a, b); }

// Reference: reduce the received blocks (compacted, one per existing source) locally.
std::vector<int> local_reduce(const std::vector<int>& blocks, std::size_t n, MPI_Op op) {
  std::vector<int> r(kCount, kSentinel);
  for (std::size_t j = 0; j < n; ++j)
    for (int x = 0; x < kCount; ++x)
      r[static_cast<std::size_t>(x)] = j == 0 ? blocks[static_cast<std::size_t>(x)]
                                              : apply(op, r[static_cast<std::size_t>(x)], blocks[j * kCount + static_cast<std::size_t>(x)]);
  return r;
}

}  // namespace

TEST(CartReduce, ReduceAndScatterReduceMatchMpi) {
  const int p = cartex::test::world_size(), rank = cartex::test::world_rank();
  for (const carttest::Case& c : carttest::cases(p)) {
    for (const char* algorithm : {"direct", "combining", "auto"}) {
      MPI_Comm comm = carttest::create(c, algorithm, "auto");
      MPI_Comm graph = carttest::reference_graph(comm);
      const auto src = carttest::neighbors(comm, -1), tgt = carttest::neighbors(comm, 1);
      std::size_t nsrc = 0;
      for (int s : src) nsrc += s != MPI_PROC_NULL;
      const int t = c.t();
      for (MPI_Op op : {MPI_SUM, MPI_MAX}) {
        SCOPED_TRACE(c.name + " " + algorithm + (op == MPI_SUM ? " sum" : " max"));
        // neighbor_reduce: one vector to all targets (values small enough not to overflow).
        std::vector<int> mine(kCount), got(kCount, kSentinel), gathered(nsrc * kCount + 1);
        for (int x = 0; x < kCount; ++x) mine[static_cast<std::size_t>(x)] = value(5, rank, 0, x) % 1000 - 500;
        ASSERT_EQ(CX_Cart_neighbor_reduce(mine.data(), got.data(), kCount, MPI_INT, op, comm), MPI_SUCCESS);
        MPI_Neighbor_allgather(mine.data(), kCount, MPI_INT, gathered.data(), kCount, MPI_INT, graph);
        EXPECT_EQ(got, local_reduce(gathered, nsrc, op));
        // scatter_reduce: a different vector per target, strided send blocks in reverse order.
        MPI_Datatype strided;
        MPI_Type_vector(kCount, 1, 2, MPI_INT, &strided);
        MPI_Type_commit(&strided);
        std::vector<int> send(static_cast<std::size_t>(t * 2 * kCount) + 1), counts(static_cast<std::size_t>(t), 1);
        std::vector<MPI_Aint> displs(static_cast<std::size_t>(t));
        std::vector<MPI_Datatype> types(static_cast<std::size_t>(t), strided);
        for (int i = 0; i < t; ++i) displs[static_cast<std::size_t>(i)] = static_cast<MPI_Aint>((t - 1 - i) * 2 * kCount * sizeof(int));
        for (std::size_t j = 0; j < send.size(); ++j) send[j] = value(6, rank, static_cast<int>(j), 0) % 1000 - 500;
        std::fill(got.begin(), got.end(), kSentinel);
        ASSERT_EQ(CX_Cart_neighbor_scatter_reduce(send.data(), counts.data(), displs.data(), types.data(), got.data(),
                                                  kCount, MPI_INT, op, comm),
                  MPI_SUCCESS);
        std::vector<int> csend, crecv(nsrc * kCount + 1);
        for (int i = 0; i < t; ++i) {
          if (tgt[static_cast<std::size_t>(i)] == MPI_PROC_NULL) continue;
          for (int x = 0; x < kCount; ++x)
            csend.push_back(
                send[static_cast<std::size_t>(displs[static_cast<std::size_t>(i)] / static_cast<MPI_Aint>(sizeof(int)) + 2 * x)]);
        }
        csend.push_back(0);
        MPI_Neighbor_alltoall(csend.data(), kCount, MPI_INT, crecv.data(), kCount, MPI_INT, graph);
        EXPECT_EQ(got, local_reduce(crecv, nsrc, op));
        MPI_Type_free(&strided);
      }
      MPI_Comm_free(&graph);
      MPI_Comm_free(&comm);
    }
  }
}
