// The C++ Neighborhood's persistent alltoallv_init / alltoallw_init on a periodic ring with offsets
// +1, -1, +2 (a repeated partner on small rings): every execution delivers block i from the process at
// -offset i, for each typed algorithm/execution option, and a plan reused with fresh data is right;
// also when run without blocking (start, then test until it reports completion, or start + wait).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "cartex/cart/neighborhood.hpp"
#include "mpi_world.hpp"

namespace {

using cartex::cart::Algorithm;
using cartex::cart::Execution;
using cartex::cart::Neighborhood;
using cartex::cart::Options;

const std::vector<int> kOffsets = {1, -1, 2};

// Value of element x of block i sent by `rank` in round r.
int value(int r, int rank, int i, int x) { return ((r * 100 + rank) * 10 + i) * 10 + x; }

// Block i has i + 1 elements; displacements in elements, block after block.
struct Blocks {
  std::vector<int> counts, displs;
  int total = 0;
  Blocks() {
    for (int i = 0; i < static_cast<int>(kOffsets.size()); ++i) {
      counts.push_back(i + 1);
      displs.push_back(total);
      total += i + 1;
    }
  }
};

int source_of(int rank, int size, int i) { return ((rank - kOffsets[static_cast<size_t>(i)]) % size + size) % size; }

TEST(CartCppApi, AlltoallvAndAlltoallwPlansDeliverEveryBlock) {
  const int rank = cartex::test::world_rank(), size = cartex::test::world_size();
  const Blocks b;
  const int t = static_cast<int>(kOffsets.size());
  for (const Algorithm a : {Algorithm::direct, Algorithm::combining})
    for (const Execution e : {Execution::zero_copy, Execution::packed}) {
      Options o;
      o.algorithm = a;
      o.execution = e;
      Neighborhood n(MPI_COMM_WORLD, {size}, {1}, kOffsets, o);
      std::vector<int> send(static_cast<size_t>(b.total)), recv(static_cast<size_t>(b.total));
      std::vector<MPI_Aint> bytes_s, bytes_r;
      std::vector<MPI_Datatype> types(static_cast<size_t>(t), MPI_INT);
      for (int i = 0; i < t; ++i) bytes_s.push_back(b.displs[static_cast<size_t>(i)] * static_cast<MPI_Aint>(sizeof(int)));
      bytes_r = bytes_s;
      auto v = n.alltoallv_init(send.data(), b.counts.data(), b.displs.data(), MPI_INT, recv.data(), b.counts.data(),
                                b.displs.data(), MPI_INT);
      auto w = n.alltoallw_init(send.data(), b.counts.data(), bytes_s.data(), types.data(), recv.data(), b.counts.data(),
                                bytes_r.data(), types.data());
      for (int round = 0; round < 8; ++round) {
        for (int i = 0; i < t; ++i)
          for (int x = 0; x < b.counts[static_cast<size_t>(i)]; ++x)
            send[static_cast<size_t>(b.displs[static_cast<size_t>(i)] + x)] = value(round, rank, i, x);
        std::fill(recv.begin(), recv.end(), -1);
        auto& plan = round % 2 == 0 ? v : w;
        if (round % 4 < 2) {
          plan.execute();
        } else if (round % 4 == 2) {
          plan.start();
          const double until = MPI_Wtime() + 20.0;
          bool complete = false;
          while (!complete && MPI_Wtime() < until) complete = plan.test();
          ASSERT_TRUE(complete) << "test() did not complete the plan";
          EXPECT_TRUE(plan.test());  // complete stays complete
        } else {
          plan.start();
          plan.wait();
        }
        for (int i = 0; i < t; ++i)
          for (int x = 0; x < b.counts[static_cast<size_t>(i)]; ++x)
            ASSERT_EQ(recv[static_cast<size_t>(b.displs[static_cast<size_t>(i)] + x)], value(round, source_of(rank, size, i), i, x))
                << "round " << round << " block " << i << " algorithm " << static_cast<int>(a) << " execution "
                << static_cast<int>(e);
      }
    }
}

}  // namespace
