// Every allgather/alltoall variant (regular, v, w; blocking, _init executed, _init started and
// waited) for all cases of support.cpp and every algorithm/execution, against receive buffers
// computed directly from the geometry: the send data is a function of (sender rank, block index,
// element), the block at offset i comes from the rank at coords - offset_i (periodic wrap) which
// sends its block i, so the whole expected buffer -- received blocks, receive blocks of
// MPI_PROC_NULL sources and gaps between blocks (both untouched) -- is known without any MPI
// collective. (MPI_Neighbor_* on a dist graph cannot be the reference: with 1 or 2 processes in a
// periodic dimension a neighbor repeats, and MPI libraries disagree on how they pair repeated edges.)
// Every check records failures and continues, so all ranks make the same collective calls.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "cartex/cart/cx_cart.h"
#include "mpi_world.hpp"
#include "support.hpp"

namespace {

using carttest::value;

constexpr int kSentinel = -7;

// One neighborhood under test with its geometric neighbor lists.
struct Env {
  MPI_Comm comm;
  std::vector<int> src, tgt;  // geometric, with MPI_PROC_NULL, in offset order
  int t;
  int rank;
  bool packed;
  std::string what;
};

std::size_t at(int i) { return static_cast<std::size_t>(i); }

int count_of(int i) { return (3 * i + 1) % 4; }

// Records (never aborts) every element of got that differs from expect: the count and the first few.
void expect_buffer(const std::vector<int>& got, const std::vector<int>& expect, std::uint64_t seed) {
  ASSERT_EQ(got.size(), expect.size());  // the test's own bookkeeping, the same on every rank
  std::size_t bad = 0;
  std::string first;
  for (std::size_t j = 0; j < got.size(); ++j)
    if (got[j] != expect[j] && ++bad <= 4)
      first += " [" + std::to_string(j) + "] got " + std::to_string(got[j]) + " expected " + std::to_string(expect[j]) + ";";
  EXPECT_EQ(bad, 0u) << "seed " << seed << ", " << bad << " of " << got.size() << " elements differ:" << first
                     << " (untouched = " << kSentinel << ")";
}

// Runs ours blocking, or as a plan executed twice and then started and waited for, with fresh data
// in the same buffers each time. Every process makes the same calls whatever the results.
void ours(bool plan, const std::function<void(std::uint64_t)>& fill, const std::function<int(CX_Cart_plan*)>& call,
          const std::function<void(std::uint64_t)>& check) {
  if (!plan) {
    fill(1);
    EXPECT_EQ(call(nullptr), MPI_SUCCESS);
    check(1);
    return;
  }
  CX_Cart_plan p = nullptr;
  fill(2);
  EXPECT_EQ(call(&p), MPI_SUCCESS);
  for (std::uint64_t seed : {3u, 4u}) {
    fill(seed);
    EXPECT_EQ(CX_Cart_plan_execute(p), MPI_SUCCESS) << "execute, seed " << seed;
    check(seed);
  }
  fill(5);
  EXPECT_EQ(CX_Cart_plan_start(p), MPI_SUCCESS);
  int flag = 0;
  EXPECT_EQ(CX_Cart_plan_test(p, &flag), MPI_SUCCESS);
  EXPECT_EQ(CX_Cart_plan_wait(p), MPI_SUCCESS);
  check(5);
  EXPECT_EQ(CX_Cart_plan_free(&p), MPI_SUCCESS);
  EXPECT_EQ(p, nullptr);
}

// Block i (m ints) of rank r is value(seed, r, i, x); receive block i holds block i of source i.
void test_alltoall(const Env& e, int m, bool plan) {
  SCOPED_TRACE(e.what + " alltoall m=" + std::to_string(m) + (plan ? " init" : ""));
  std::vector<int> send(at(e.t * m) + 1), recv(send.size());
  auto fill = [&](std::uint64_t seed) {
    for (int i = 0; i < e.t; ++i)
      for (int x = 0; x < m; ++x) send[at(i * m + x)] = value(seed, e.rank, i, x);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> expect(recv.size(), kSentinel);
    for (int i = 0; i < e.t; ++i)
      if (e.src[at(i)] != MPI_PROC_NULL)
        for (int x = 0; x < m; ++x) expect[at(i * m + x)] = value(seed, e.src[at(i)], i, x);
    expect_buffer(recv, expect, seed);
  };
  ours(plan, fill,
       [&](CX_Cart_plan* p) {
         return p ? CX_Cart_alltoall_init(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, e.comm, p)
                  : CX_Cart_alltoall(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, e.comm);
       },
       check);
}

// Rank r sends value(seed, r, 0, x); receive block i holds source i's.
void test_allgather(const Env& e, int m, bool plan) {
  SCOPED_TRACE(e.what + " allgather m=" + std::to_string(m) + (plan ? " init" : ""));
  std::vector<int> send(at(m) + 1), recv(at(e.t * m) + 1);
  auto fill = [&](std::uint64_t seed) {
    for (int x = 0; x < m; ++x) send[at(x)] = value(seed, e.rank, 0, x);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> expect(recv.size(), kSentinel);
    for (int i = 0; i < e.t; ++i)
      if (e.src[at(i)] != MPI_PROC_NULL)
        for (int x = 0; x < m; ++x) expect[at(i * m + x)] = value(seed, e.src[at(i)], 0, x);
    expect_buffer(recv, expect, seed);
  };
  ours(plan, fill,
       [&](CX_Cart_plan* p) {
         return p ? CX_Cart_allgather_init(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, e.comm, p)
                  : CX_Cart_allgather(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, e.comm);
       },
       check);
}

// Irregular layouts: counts vary per index (some zero), send blocks stored in reverse order, receive
// blocks with gaps; the same on every process as section 3.3 requires.
void test_alltoallv(const Env& e, bool plan) {
  SCOPED_TRACE(e.what + " alltoallv" + (plan ? " init" : ""));
  std::vector<int> counts(at(e.t)), sd(counts.size()), rd(counts.size());
  int stotal = 0, rtotal = 1;
  for (int i = e.t - 1; i >= 0; --i) {
    counts[at(i)] = count_of(i);
    sd[at(i)] = stotal;
    stotal += count_of(i) + 1;
  }
  for (int i = 0; i < e.t; ++i) {
    rd[at(i)] = rtotal;
    rtotal += count_of(i) + 2;
  }
  std::vector<int> send(at(stotal) + 1), recv(at(rtotal) + 1);
  auto fill = [&](std::uint64_t seed) {
    for (int i = 0; i < e.t; ++i)
      for (int x = 0; x < counts[at(i)]; ++x) send[at(sd[at(i)] + x)] = value(seed, e.rank, i, x);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> expect(recv.size(), kSentinel);
    for (int i = 0; i < e.t; ++i)
      if (e.src[at(i)] != MPI_PROC_NULL)
        for (int x = 0; x < counts[at(i)]; ++x) expect[at(rd[at(i)] + x)] = value(seed, e.src[at(i)], i, x);
    expect_buffer(recv, expect, seed);
  };
  ours(plan, fill,
       [&](CX_Cart_plan* p) {
         return p ? CX_Cart_alltoallv_init(send.data(), counts.data(), sd.data(), MPI_INT, recv.data(), counts.data(),
                                           rd.data(), MPI_INT, e.comm, p)
                  : CX_Cart_alltoallv(send.data(), counts.data(), sd.data(), MPI_INT, recv.data(), counts.data(),
                                      rd.data(), MPI_INT, e.comm);
       },
       check);
}

// Non-contiguous w blocks: block i is c(i) ints, sent as every other int from byte sd[i], received
// contiguously (even i) or every third int (odd i) from byte rd[i]; count 0 for i % 7 == 3.
struct WTypes {
  std::vector<MPI_Datatype> send, recv;
  std::vector<int> counts, ints;
  std::vector<MPI_Aint> sd, rd;
  std::size_t sints = 0, rints = 0;
  explicit WTypes(int t) {
    for (int i = 0; i < t; ++i) {
      const int c = count_of(i) + (i % 5 == 0 ? 0 : 1);
      MPI_Datatype s, r;
      MPI_Type_vector(c, 1, 2, MPI_INT, &s);
      if (i % 2 == 0) MPI_Type_contiguous(c, MPI_INT, &r);
      else MPI_Type_vector(c, 1, 3, MPI_INT, &r);
      MPI_Type_commit(&s);
      MPI_Type_commit(&r);
      send.push_back(s);
      recv.push_back(r);
      ints.push_back(c);
      counts.push_back(i % 7 == 3 ? 0 : 1);
      sd.push_back(static_cast<MPI_Aint>(sints * sizeof(int)));
      sints += 2 * static_cast<std::size_t>(c) + 1;
      rd.push_back(static_cast<MPI_Aint>((rints + 1) * sizeof(int)));
      rints += 3 * static_cast<std::size_t>(c) + 2;
    }
  }
  ~WTypes() {
    for (auto& v : {&send, &recv})
      for (MPI_Datatype& x : *v) MPI_Type_free(&x);
  }
};

// Send element j of rank r is value(seed, r, j, 9), so int k of block i from source s is
// value(seed, s, sd[i] / sizeof(int) + 2k, 9) (sd is the same on every process).
void test_alltoallw(const Env& e, bool plan) {
  SCOPED_TRACE(e.what + " alltoallw" + (plan ? " init" : ""));
  WTypes w(e.t);
  std::vector<int> send(w.sints + 1), recv(w.rints + 2);
  auto fill = [&](std::uint64_t seed) {
    for (std::size_t j = 0; j < send.size(); ++j) send[j] = value(seed, e.rank, static_cast<int>(j), 9);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> expect(recv.size(), kSentinel);
    for (int i = 0; i < e.t; ++i) {
      if (e.src[at(i)] == MPI_PROC_NULL || w.counts[at(i)] == 0) continue;
      const std::size_t s0 = static_cast<std::size_t>(w.sd[at(i)]) / sizeof(int),
                        r0 = static_cast<std::size_t>(w.rd[at(i)]) / sizeof(int), stride = i % 2 == 0 ? 1 : 3;
      for (int k = 0; k < w.ints[at(i)]; ++k)
        expect[r0 + stride * at(k)] = value(seed, e.src[at(i)], static_cast<int>(s0 + 2 * at(k)), 9);
    }
    expect_buffer(recv, expect, seed);
  };
  ours(plan, fill,
       [&](CX_Cart_plan* p) {
         return p ? CX_Cart_alltoallw_init(send.data(), w.counts.data(), w.sd.data(), w.send.data(), recv.data(),
                                           w.counts.data(), w.rd.data(), w.recv.data(), e.comm, p)
                  : CX_Cart_alltoallw(send.data(), w.counts.data(), w.sd.data(), w.send.data(), recv.data(),
                                      w.counts.data(), w.rd.data(), w.recv.data(), e.comm);
       },
       check);
}

// Receive blocks stored in reverse order with a one-int gap before each.
void test_allgatherv(const Env& e, int m, bool plan) {
  SCOPED_TRACE(e.what + " allgatherv" + (plan ? " init" : ""));
  std::vector<int> counts(at(e.t), m), displs(counts.size());
  for (int i = 0; i < e.t; ++i) displs[at(i)] = (e.t - 1 - i) * (m + 1) + 1;
  std::vector<int> send(at(m) + 1), recv(at(e.t * (m + 1)) + 2);
  auto fill = [&](std::uint64_t seed) {
    for (int x = 0; x < m; ++x) send[at(x)] = value(seed, e.rank, 0, x);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> expect(recv.size(), kSentinel);
    for (int i = 0; i < e.t; ++i)
      if (e.src[at(i)] != MPI_PROC_NULL)
        for (int x = 0; x < m; ++x) expect[at(displs[at(i)] + x)] = value(seed, e.src[at(i)], 0, x);
    expect_buffer(recv, expect, seed);
  };
  ours(plan, fill,
       [&](CX_Cart_plan* p) {
         return p ? CX_Cart_allgatherv_init(send.data(), m, MPI_INT, recv.data(), counts.data(), displs.data(), MPI_INT,
                                            e.comm, p)
                  : CX_Cart_allgatherv(send.data(), m, MPI_INT, recv.data(), counts.data(), displs.data(), MPI_INT,
                                       e.comm);
       },
       check);
}

// allgatherw (not in MPI): every process sends every third int of its buffer (value(seed, r, 0, 3k));
// block i is received in reverse order, contiguous (even i) or every other int (odd i).
void test_allgatherw(const Env& e, int m, bool plan) {
  SCOPED_TRACE(e.what + " allgatherw" + (plan ? " init" : ""));
  MPI_Datatype stype, strided, contig;
  MPI_Type_vector(m, 1, 3, MPI_INT, &stype);
  MPI_Type_vector(m, 1, 2, MPI_INT, &strided);
  MPI_Type_contiguous(m, MPI_INT, &contig);
  for (MPI_Datatype* x : {&stype, &strided, &contig}) MPI_Type_commit(x);
  std::vector<int> counts(at(e.t), 1);
  std::vector<MPI_Aint> displs(counts.size());
  std::vector<MPI_Datatype> rtypes(counts.size());
  for (int i = 0; i < e.t; ++i) {
    displs[at(i)] = static_cast<MPI_Aint>(((e.t - 1 - i) * (2 * m + 1) + 1) * sizeof(int));
    rtypes[at(i)] = i % 2 ? strided : contig;
  }
  std::vector<int> send(at(3 * m) + 1), recv(at(e.t * (2 * m + 1)) + 2);
  auto fill = [&](std::uint64_t seed) {
    for (std::size_t j = 0; j < send.size(); ++j) send[j] = value(seed, e.rank, 0, static_cast<int>(j));
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> expect(recv.size(), kSentinel);
    for (int i = 0; i < e.t; ++i) {
      if (e.src[at(i)] == MPI_PROC_NULL) continue;
      const std::size_t r0 = static_cast<std::size_t>(displs[at(i)]) / sizeof(int), stride = i % 2 ? 2 : 1;
      for (int k = 0; k < m; ++k) expect[r0 + stride * at(k)] = value(seed, e.src[at(i)], 0, 3 * k);
    }
    expect_buffer(recv, expect, seed);
  };
  ours(plan, fill,
       [&](CX_Cart_plan* p) {
         return p ? CX_Cart_allgatherw_init(send.data(), 1, stype, recv.data(), counts.data(), displs.data(),
                                            rtypes.data(), e.comm, p)
                  : CX_Cart_allgatherw(send.data(), 1, stype, recv.data(), counts.data(), displs.data(), rtypes.data(),
                                       e.comm);
       },
       check);
  for (MPI_Datatype* x : {&stype, &strided, &contig}) MPI_Type_free(x);
}

struct Variant {
  const char* algorithm;
  const char* execution;
};

const Variant kVariants[] = {{"direct", "zerocopy"}, {"combining", "zerocopy"}, {"combining", "packed"},
                             {"direct", "packed"},   {"auto", "auto"}};

// Creates every case and variant on all ranks; a neighborhood that some rank failed to create is
// skipped by all of them (recorded as a failure), so no rank is left in a collective alone.
template <class F>
void for_each_env(F&& f) {
  const int p = cartex::test::world_size(), rank = cartex::test::world_rank();
  for (const carttest::Case& c : carttest::cases(p)) {
    for (const Variant& v : kVariants) {
      Env e{carttest::create(c, v.algorithm, v.execution), carttest::geometric_neighbors(c, rank, -1),
            carttest::geometric_neighbors(c, rank, 1), c.t(), rank, std::string(v.execution) == "packed",
            c.name + " " + v.algorithm + "/" + v.execution};
      const int failed = cartex::test::world_sum(e.comm == MPI_COMM_NULL ? 1 : 0);
      EXPECT_EQ(failed, 0) << e.what << ": creation failed on some rank";
      if (failed == 0) {
        int crank = -1;
        MPI_Comm_rank(e.comm, &crank);
        EXPECT_EQ(crank, rank) << e.what << " (created without reordering)";
        EXPECT_EQ(carttest::neighbors(e.comm, -1), e.src) << e.what << " sources";
        EXPECT_EQ(carttest::neighbors(e.comm, 1), e.tgt) << e.what << " targets";
        f(e);
      }
      if (e.comm != MPI_COMM_NULL) MPI_Comm_free(&e.comm);
    }
  }
}

}  // namespace

TEST(CartCollectives, RegularBlockingAndInit) {
  for_each_env([](const Env& e) {
    for (bool plan : {false, true}) {
      test_alltoall(e, 3, plan);
      test_allgather(e, 2, plan);
    }
    test_alltoall(e, 0, false);
    test_allgather(e, 0, true);
  });
}

TEST(CartCollectives, IrregularBlockingAndInit) {
  for_each_env([](const Env& e) {
    for (bool plan : {false, true}) {
      test_alltoallv(e, plan);
      test_allgatherv(e, 2, plan);
      if (!e.packed) {
        test_alltoallw(e, plan);
        test_allgatherw(e, 3, plan);
      }
    }
  });
}

// A cached schedule must not bind buffers: the same collective on two live buffer sets, and
// different collectives alternating on one neighborhood, are right every time.
TEST(CartCollectives, BlockingCallsTakeAnyBuffers) {
  const int p = cartex::test::world_size(), rank = cartex::test::world_rank();
  for (const carttest::Case& c : carttest::cases(p)) {
    if (c.name != "d2_moore1_periodic" && c.name != "small_dims_mixed") continue;
    for (const Variant& v : kVariants) {
      SCOPED_TRACE(c.name + " " + v.algorithm + "/" + v.execution);
      MPI_Comm comm = carttest::create(c, v.algorithm, v.execution);
      const int failed = cartex::test::world_sum(comm == MPI_COMM_NULL ? 1 : 0);
      EXPECT_EQ(failed, 0) << "creation failed on some rank";
      if (failed != 0) {
        if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
        continue;
      }
      const std::vector<int> src = carttest::geometric_neighbors(c, rank, -1);
      const int t = c.t(), m = 2;
      std::vector<std::vector<int>> send(2, std::vector<int>(at(t * m))), recv(2, std::vector<int>(at(t * m)));
      for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const int b = round % 2;
        for (int i = 0; i < t * m; ++i) send[at(b)][at(i)] = value(round, rank, i, 0);
        std::fill(recv[at(b)].begin(), recv[at(b)].end(), kSentinel);
        if (round == 2) {
          std::vector<int> g(at(t * m), kSentinel), one = {value(7, rank, 0, 0), value(7, rank, 1, 0)};
          EXPECT_EQ(CX_Cart_allgather(one.data(), m, MPI_INT, g.data(), m, MPI_INT, comm), MPI_SUCCESS);
          std::vector<int> expect(g.size(), kSentinel);
          for (int i = 0; i < t; ++i)
            if (src[at(i)] != MPI_PROC_NULL)
              for (int x = 0; x < m; ++x) expect[at(i * m + x)] = value(7, src[at(i)], x, 0);
          expect_buffer(g, expect, 7);
        }
        EXPECT_EQ(CX_Cart_alltoall(send[at(b)].data(), m, MPI_INT, recv[at(b)].data(), m, MPI_INT, comm), MPI_SUCCESS);
        std::vector<int> expect(at(t * m), kSentinel);
        for (int i = 0; i < t; ++i)
          if (src[at(i)] != MPI_PROC_NULL)
            for (int x = 0; x < m; ++x) expect[at(i * m + x)] = value(round, src[at(i)], i * m + x, 0);
        expect_buffer(recv[at(b)], expect, static_cast<std::uint64_t>(round));
      }
      MPI_Comm_free(&comm);
    }
  }
}
