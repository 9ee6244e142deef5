// Every allgather/alltoall variant (regular, v, w; blocking and _init) against the MPI
// neighborhood collectives on the dist-graph communicator with the same neighbors, for all cases
// of support.cpp and every algorithm/execution, plus an independent analytic expectation.
// Receive blocks of MPI_PROC_NULL sources must stay untouched.
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

// One neighborhood under test with its reference graph.
struct Env {
  MPI_Comm comm;
  MPI_Comm graph;
  std::vector<int> src, tgt;  // with MPI_PROC_NULL
  int t;
  int rank;
  bool packed;
  std::string what;
};

std::vector<int> nonnull(const std::vector<int>& ranks) {
  std::vector<int> idx;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i] != MPI_PROC_NULL) idx.push_back(static_cast<int>(i));
  return idx;
}

int count_of(int i) { return (3 * i + 1) % 4; }

// Runs ours blocking, or as a plan executed twice with fresh data in the same buffers.
void ours(bool plan, const std::function<void(std::uint64_t)>& fill, const std::function<int(CX_Cart_plan*)>& call,
          const std::function<void(std::uint64_t)>& check) {
  if (!plan) {
    fill(1);
    ASSERT_EQ(call(nullptr), MPI_SUCCESS);
    check(1);
    return;
  }
  CX_Cart_plan p = nullptr;
  fill(2);
  ASSERT_EQ(call(&p), MPI_SUCCESS);
  for (std::uint64_t seed : {3u, 4u}) {
    fill(seed);
    ASSERT_EQ(CX_Cart_plan_execute(p), MPI_SUCCESS);
    check(seed);
  }
  ASSERT_EQ(CX_Cart_plan_free(&p), MPI_SUCCESS);
  EXPECT_EQ(p, nullptr);
}

void test_alltoall(const Env& e, int m, bool plan) {
  SCOPED_TRACE(e.what + " alltoall m=" + std::to_string(m) + (plan ? " init" : ""));
  const auto tgt = nonnull(e.tgt), src = nonnull(e.src);
  std::vector<int> send(static_cast<std::size_t>(e.t * m) + 1), recv(send.size());
  auto fill = [&](std::uint64_t seed) {
    for (int i = 0; i < e.t; ++i)
      for (int x = 0; x < m; ++x) send[static_cast<std::size_t>(i * m + x)] = value(seed, e.rank, i, x);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> csend, crecv(src.size() * static_cast<std::size_t>(m) + 1, kSentinel);
    for (int i : tgt) csend.insert(csend.end(), send.begin() + i * m, send.begin() + (i + 1) * m);
    csend.push_back(0);
    MPI_Neighbor_alltoall(csend.data(), m, MPI_INT, crecv.data(), m, MPI_INT, e.graph);
    std::vector<char> significant(static_cast<std::size_t>(e.t), 0);
    for (std::size_t j = 0; j < src.size(); ++j) {
      const int i = src[j];
      significant[static_cast<std::size_t>(i)] = 1;
      for (int x = 0; x < m; ++x) {
        const int got = recv[static_cast<std::size_t>(i * m + x)];
        ASSERT_EQ(got, crecv[j * static_cast<std::size_t>(m) + static_cast<std::size_t>(x)]) << "block " << i;
        ASSERT_EQ(got, value(seed, e.src[static_cast<std::size_t>(i)], i, x)) << "block " << i;
      }
    }
    for (int i = 0; i < e.t; ++i)
      if (!significant[static_cast<std::size_t>(i)])
        for (int x = 0; x < m; ++x) ASSERT_EQ(recv[static_cast<std::size_t>(i * m + x)], kSentinel) << "PROC_NULL block " << i;
  };
  ours(plan, fill,
       [&](CX_Cart_plan* p) {
         return p ? CX_Cart_alltoall_init(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, e.comm, p)
                  : CX_Cart_alltoall(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, e.comm);
       },
       check);
}

void test_allgather(const Env& e, int m, bool plan) {
  SCOPED_TRACE(e.what + " allgather m=" + std::to_string(m) + (plan ? " init" : ""));
  const auto src = nonnull(e.src);
  std::vector<int> send(static_cast<std::size_t>(m) + 1), recv(static_cast<std::size_t>(e.t * m) + 1);
  auto fill = [&](std::uint64_t seed) {
    for (int x = 0; x < m; ++x) send[static_cast<std::size_t>(x)] = value(seed, e.rank, 0, x);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> crecv(src.size() * static_cast<std::size_t>(m) + 1, kSentinel);
    MPI_Neighbor_allgather(send.data(), m, MPI_INT, crecv.data(), m, MPI_INT, e.graph);
    std::vector<char> significant(static_cast<std::size_t>(e.t), 0);
    for (std::size_t j = 0; j < src.size(); ++j) {
      const int i = src[j];
      significant[static_cast<std::size_t>(i)] = 1;
      for (int x = 0; x < m; ++x) {
        const int got = recv[static_cast<std::size_t>(i * m + x)];
        ASSERT_EQ(got, crecv[j * static_cast<std::size_t>(m) + static_cast<std::size_t>(x)]) << "block " << i;
        ASSERT_EQ(got, value(seed, e.src[static_cast<std::size_t>(i)], 0, x)) << "block " << i;
      }
    }
    for (int i = 0; i < e.t; ++i)
      if (!significant[static_cast<std::size_t>(i)])
        for (int x = 0; x < m; ++x) ASSERT_EQ(recv[static_cast<std::size_t>(i * m + x)], kSentinel) << "PROC_NULL block " << i;
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
  std::vector<int> counts(static_cast<std::size_t>(e.t)), sd(counts.size()), rd(counts.size());
  int stotal = 0, rtotal = 1;
  for (int i = e.t - 1; i >= 0; --i) {
    counts[static_cast<std::size_t>(i)] = count_of(i);
    sd[static_cast<std::size_t>(i)] = stotal;
    stotal += count_of(i) + 1;
  }
  for (int i = 0; i < e.t; ++i) {
    rd[static_cast<std::size_t>(i)] = rtotal;
    rtotal += count_of(i) + 2;
  }
  std::vector<int> send(static_cast<std::size_t>(stotal) + 1), recv(static_cast<std::size_t>(rtotal) + 1),
      ref(recv.size());
  auto fill = [&](std::uint64_t seed) {
    for (int i = 0; i < e.t; ++i)
      for (int x = 0; x < counts[static_cast<std::size_t>(i)]; ++x)
        send[static_cast<std::size_t>(sd[static_cast<std::size_t>(i)] + x)] = value(seed, e.rank, i, x);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t seed) {
    std::vector<int> sc, sdc, rc, rdc;
    for (int i : nonnull(e.tgt)) {
      sc.push_back(counts[static_cast<std::size_t>(i)]);
      sdc.push_back(sd[static_cast<std::size_t>(i)]);
    }
    for (int i : nonnull(e.src)) {
      rc.push_back(counts[static_cast<std::size_t>(i)]);
      rdc.push_back(rd[static_cast<std::size_t>(i)]);
    }
    sc.push_back(0), sdc.push_back(0), rc.push_back(0), rdc.push_back(0);
    std::fill(ref.begin(), ref.end(), kSentinel);
    MPI_Neighbor_alltoallv(send.data(), sc.data(), sdc.data(), MPI_INT, ref.data(), rc.data(), rdc.data(), MPI_INT,
                           e.graph);
    ASSERT_EQ(recv, ref);
    for (int i : nonnull(e.src))
      for (int x = 0; x < counts[static_cast<std::size_t>(i)]; ++x)
        ASSERT_EQ(recv[static_cast<std::size_t>(rd[static_cast<std::size_t>(i)] + x)],
                  value(seed, e.src[static_cast<std::size_t>(i)], i, x));
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

// Non-contiguous w blocks: strided send blocks, alternating contiguous / strided receive blocks.
struct WTypes {
  std::vector<MPI_Datatype> send, recv;
  std::vector<int> counts;
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

void test_alltoallw(const Env& e, bool plan) {
  SCOPED_TRACE(e.what + " alltoallw" + (plan ? " init" : ""));
  WTypes w(e.t);
  std::vector<int> send(w.sints + 1), recv(w.rints + 2), ref(recv.size());
  auto fill = [&](std::uint64_t seed) {
    for (std::size_t j = 0; j < send.size(); ++j) send[j] = value(seed, e.rank, static_cast<int>(j), 9);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t) {
    std::vector<int> sc, rc;
    std::vector<MPI_Aint> sdc, rdc;
    std::vector<MPI_Datatype> st, rt;
    for (int i : nonnull(e.tgt)) {
      sc.push_back(w.counts[static_cast<std::size_t>(i)]);
      sdc.push_back(w.sd[static_cast<std::size_t>(i)]);
      st.push_back(w.send[static_cast<std::size_t>(i)]);
    }
    for (int i : nonnull(e.src)) {
      rc.push_back(w.counts[static_cast<std::size_t>(i)]);
      rdc.push_back(w.rd[static_cast<std::size_t>(i)]);
      rt.push_back(w.recv[static_cast<std::size_t>(i)]);
    }
    sc.push_back(0), sdc.push_back(0), st.push_back(MPI_INT), rc.push_back(0), rdc.push_back(0), rt.push_back(MPI_INT);
    std::fill(ref.begin(), ref.end(), kSentinel);
    MPI_Neighbor_alltoallw(send.data(), sc.data(), sdc.data(), st.data(), ref.data(), rc.data(), rdc.data(), rt.data(),
                           e.graph);
    ASSERT_EQ(recv, ref);
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

void test_allgatherv(const Env& e, int m, bool plan) {
  SCOPED_TRACE(e.what + " allgatherv" + (plan ? " init" : ""));
  std::vector<int> counts(static_cast<std::size_t>(e.t), m), displs(counts.size());
  for (int i = 0; i < e.t; ++i) displs[static_cast<std::size_t>(i)] = (e.t - 1 - i) * (m + 1) + 1;
  std::vector<int> send(static_cast<std::size_t>(m) + 1), recv(static_cast<std::size_t>(e.t * (m + 1)) + 2),
      ref(recv.size());
  auto fill = [&](std::uint64_t seed) {
    for (int x = 0; x < m; ++x) send[static_cast<std::size_t>(x)] = value(seed, e.rank, 0, x);
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t) {
    std::vector<int> rc, rdc;
    for (int i : nonnull(e.src)) {
      rc.push_back(m);
      rdc.push_back(displs[static_cast<std::size_t>(i)]);
    }
    rc.push_back(0), rdc.push_back(0);
    std::fill(ref.begin(), ref.end(), kSentinel);
    MPI_Neighbor_allgatherv(send.data(), m, MPI_INT, ref.data(), rc.data(), rdc.data(), MPI_INT, e.graph);
    ASSERT_EQ(recv, ref);
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

// allgatherw has no MPI counterpart; the reference is MPI_Neighbor_alltoallw sending the same
// strided block to every target.
void test_allgatherw(const Env& e, int m, bool plan) {
  SCOPED_TRACE(e.what + " allgatherw" + (plan ? " init" : ""));
  MPI_Datatype stype, strided, contig;
  MPI_Type_vector(m, 1, 3, MPI_INT, &stype);
  MPI_Type_vector(m, 1, 2, MPI_INT, &strided);
  MPI_Type_contiguous(m, MPI_INT, &contig);
  for (MPI_Datatype* x : {&stype, &strided, &contig}) MPI_Type_commit(x);
  std::vector<int> counts(static_cast<std::size_t>(e.t), 1);
  std::vector<MPI_Aint> displs(counts.size());
  std::vector<MPI_Datatype> rtypes(counts.size());
  for (int i = 0; i < e.t; ++i) {
    displs[static_cast<std::size_t>(i)] = static_cast<MPI_Aint>(((e.t - 1 - i) * (2 * m + 1) + 1) * sizeof(int));
    rtypes[static_cast<std::size_t>(i)] = i % 2 ? strided : contig;
  }
  std::vector<int> send(static_cast<std::size_t>(3 * m) + 1), recv(static_cast<std::size_t>(e.t * (2 * m + 1)) + 2),
      ref(recv.size());
  auto fill = [&](std::uint64_t seed) {
    for (std::size_t j = 0; j < send.size(); ++j) send[j] = value(seed, e.rank, 0, static_cast<int>(j));
    std::fill(recv.begin(), recv.end(), kSentinel);
  };
  auto check = [&](std::uint64_t) {
    std::vector<int> sc, rc;
    std::vector<MPI_Aint> sdc, rdc;
    std::vector<MPI_Datatype> st, rt;
    for (std::size_t j = 0; j < nonnull(e.tgt).size(); ++j) {
      sc.push_back(1);
      sdc.push_back(0);
      st.push_back(stype);
    }
    for (int i : nonnull(e.src)) {
      rc.push_back(1);
      rdc.push_back(displs[static_cast<std::size_t>(i)]);
      rt.push_back(rtypes[static_cast<std::size_t>(i)]);
    }
    sc.push_back(0), sdc.push_back(0), st.push_back(MPI_INT), rc.push_back(0), rdc.push_back(0), rt.push_back(MPI_INT);
    std::fill(ref.begin(), ref.end(), kSentinel);
    MPI_Neighbor_alltoallw(send.data(), sc.data(), sdc.data(), st.data(), ref.data(), rc.data(), rdc.data(), rt.data(),
                           e.graph);
    ASSERT_EQ(recv, ref);
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

template <class F>
void for_each_env(F&& f) {
  const int p = cartex::test::world_size(), rank = cartex::test::world_rank();
  for (const carttest::Case& c : carttest::cases(p)) {
    for (const Variant& v : kVariants) {
      Env e{carttest::create(c, v.algorithm, v.execution), MPI_COMM_NULL, {}, {}, c.t(), rank,
            std::string(v.execution) == "packed", c.name + " " + v.algorithm + "/" + v.execution};
      ASSERT_NE(e.comm, MPI_COMM_NULL) << e.what;
      e.graph = carttest::reference_graph(e.comm);
      e.src = carttest::neighbors(e.comm, -1);
      e.tgt = carttest::neighbors(e.comm, 1);
      f(e);
      MPI_Comm_free(&e.graph);
      MPI_Comm_free(&e.comm);
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
      MPI_Comm comm = carttest::create(c, v.algorithm, v.execution);
      const std::vector<int> src = carttest::neighbors(comm, -1);
      const int t = c.t(), m = 2;
      std::vector<std::vector<int>> send(2, std::vector<int>(static_cast<std::size_t>(t * m))),
          recv(2, std::vector<int>(static_cast<std::size_t>(t * m)));
      for (int round = 0; round < 4; ++round) {
        const int b = round % 2;
        for (int i = 0; i < t * m; ++i) send[static_cast<std::size_t>(b)][static_cast<std::size_t>(i)] = value(round, rank, i, 0);
        if (round == 2) {
          std::vector<int> g(static_cast<std::size_t>(t * m), kSentinel), one = {value(7, rank, 0, 0), value(7, rank, 1, 0)};
          ASSERT_EQ(CX_Cart_allgather(one.data(), m, MPI_INT, g.data(), m, MPI_INT, comm), MPI_SUCCESS);
          for (int i = 0; i < t; ++i)
            if (src[static_cast<std::size_t>(i)] != MPI_PROC_NULL)
              ASSERT_EQ(g[static_cast<std::size_t>(i * m + 1)], value(7, src[static_cast<std::size_t>(i)], 1, 0));
        }
        ASSERT_EQ(CX_Cart_alltoall(send[static_cast<std::size_t>(b)].data(), m, MPI_INT,
                                   recv[static_cast<std::size_t>(b)].data(), m, MPI_INT, comm),
                  MPI_SUCCESS);
        for (int i = 0; i < t; ++i)
          if (src[static_cast<std::size_t>(i)] != MPI_PROC_NULL)
            for (int x = 0; x < m; ++x)
              ASSERT_EQ(recv[static_cast<std::size_t>(b)][static_cast<std::size_t>(i * m + x)],
                        value(round, src[static_cast<std::size_t>(i)], i * m + x, 0))
                  << c.name << " " << v.algorithm << " round " << round;
      }
      MPI_Comm_free(&comm);
    }
  }
}
