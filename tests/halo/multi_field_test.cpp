// Many fields, one exchange (issue 37), every backend: a plan of N = 1, 2, 3 fields exchanges the set
// in one go with bitwise the halo each field gets exchanged alone, and every halo cell of every field
// holds its owner's value (exchange_check.hpp); the set is exchanged twice and then in another order
// (the zero-copy backends build their datatypes per tuple of field addresses). Messages and rounds of
// N fields are those of one field, bytes N times (plan and prediction). A wrong set (size, layout,
// null, repeated field) is refused with cartex::core::Error and leaves the plan usable. The cases
// cover a periodic dimension of one process (self copies on 1-2 ranks), deep halos (k > 1) and
// uneven splits (9, 7, 13 cells over 2-4 ranks); the packed backends also staged through host
// buffers (comm.gpu_aware_mpi off).
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <vector>

#include "cartex/core/error.hpp"
#include "cartex/halo/backends.hpp"
#include "built_pattern.hpp"
#include "exchange_check.hpp"
#include "mpi_world.hpp"

namespace cartex {
namespace {

using namespace halo;

// Small cases (a few seconds for every backend on 4 oversubscribed ranks).
std::vector<test::Case> cases() {
  return {
      {3, {9, 8, 7}, {true, true, true}, "box", 1, 1},       // 26 blocks; uneven; self copies on 1-2 ranks
      {3, {9, 8, 7}, {true, false, false}, "star", 1, 2},    // deep halo: k = 2 (diamond), walls
      {2, {13, 11, 1}, {false, true, true}, "box", 2, 1},    // 2D, radius 2, mixed periodicity
      {3, {7, 6, 8}, {false, true, true}, "upwind", 2, 2},   // asymmetric neighbourhood, deep halo
  };
}

// Field q starts as fill_encoded with shift 1e6 q: the fields hold different values.
double shift(size_t q) { return 1.0e6 * static_cast<double>(q); }

std::vector<std::unique_ptr<core::Field>> encoded_fields(const test::Case& c, const core::FieldLayout& L, size_t n) {
  std::vector<std::unique_ptr<core::Field>> out;
  for (size_t q = 0; q < n; ++q) {
    out.push_back(std::make_unique<core::Field>("f" + std::to_string(q), L));
    auto h = Kokkos::create_mirror_view(out.back()->view);
    test::fill_encoded(c, L, h, shift(q));
    Kokkos::deep_copy(out.back()->view, h);
  }
  return out;
}

FieldSet set_of(const std::vector<std::unique_ptr<core::Field>>& fields, const std::vector<size_t>& order) {
  std::vector<core::Field*> p;
  for (size_t q : order) p.push_back(fields[q].get());
  return FieldSet(p);
}

TEST(HaloManyFields, TogetherEqualsAloneBitwiseAndFillsEveryHalo) {
  for (const test::Case& c : cases()) {
    const test::BuiltPattern b = test::build_pattern(c);
    const core::FieldLayout& L = b.pattern.layout;
    for (const Backend& row : backends()) {
      if (!runs_here(row)) continue;
      auto alone = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo});
      for (size_t n = 1; n <= 3; ++n) {
        const std::string what = c.describe() + " N " + std::to_string(n);
        auto plan = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo, core::GpuAwareMpiInput::kAuto,
                                              static_cast<int>(n)});
        EXPECT_EQ(plan->fields(), static_cast<int>(n)) << row.name << " " << what;
        auto together = encoded_fields(c, L, n), one_by_one = encoded_fields(c, L, n);
        std::vector<size_t> order(n), rotated(n);
        for (size_t q = 0; q < n; ++q) order[q] = q, rotated[q] = (q + 1) % n;
        plan->exchange(set_of(together, order));
        plan->exchange(set_of(together, order));    // a reused plan gives the same halo
        plan->exchange(set_of(together, rotated));  // another address tuple
        for (size_t q = 0; q < n; ++q) alone->exchange(*one_by_one[q]);
        for (size_t q = 0; q < n; ++q) {
          auto ht = Kokkos::create_mirror_view(together[q]->view);
          auto ha = Kokkos::create_mirror_view(one_by_one[q]->view);
          Kokkos::deep_copy(ht, together[q]->view);
          Kokkos::deep_copy(ha, one_by_one[q]->view);
          long differ = 0;
          for (size_t i = 0; i < ht.size(); ++i) differ += ht.data()[i] != ha.data()[i] ? 1 : 0;  // bitwise: no NaN here
          EXPECT_EQ(differ, 0) << row.name << " " << what << " field " << q << ": cells differing from the one-field exchange";
          EXPECT_EQ(test::wrong_cells(c, L, ht, row.name, what + " field " + std::to_string(q), shift(q)), 0)
              << row.name << " " << what << " field " << q;
        }
      }
    }
  }
}

TEST(HaloManyFields, PackedBackendsStagedThroughHostBuffers) {
  // comm.gpu_aware_mpi off: the packed backends' N-field buffers copied to and from host buffers.
  for (const test::Case& c : {cases()[0], cases()[1]}) {
    const test::BuiltPattern b = test::build_pattern(c);
    const core::FieldLayout& L = b.pattern.layout;
    for (const Backend& row : backends()) {
      if (row.zero_copy || !runs_here(row, core::GpuAwareMpiInput::kOff)) continue;
      auto plan = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo, core::GpuAwareMpiInput::kOff, 2});
      auto fields = encoded_fields(c, L, 2);
      plan->exchange(set_of(fields, {0, 1}));
      for (size_t q = 0; q < 2; ++q) {
        auto h = Kokkos::create_mirror_view(fields[q]->view);
        Kokkos::deep_copy(h, fields[q]->view);
        const std::string what = c.describe() + " staged N 2 field " + std::to_string(q);
        EXPECT_EQ(test::wrong_cells(c, L, h, row.name, what, shift(q)), 0) << row.name << " " << what;
      }
    }
  }
}

TEST(HaloManyFields, MessagesAndRoundsOfOneFieldBytesNTimes) {
  for (const test::Case& c : cases()) {
    const test::BuiltPattern b = test::build_pattern(c);
    for (const Backend& row : backends()) {
      if (!runs_here(row)) continue;
      const PlanInputs one{b.pattern, MPI_COMM_WORLD, &b.geo};
      for (int n : {2, 3}) {
        const PlanInputs in{b.pattern, MPI_COMM_WORLD, &b.geo, core::GpuAwareMpiInput::kAuto, n};
        const auto plan = make_halo_plan(row.name, in);
        const HaloStats s = plan->stats();
        // auto: against the one-field plan of the backend it picked for N fields.
        const HaloStats s1 = make_halo_plan(plan->backend(), one)->stats();
        EXPECT_EQ(s.messages, s1.messages) << row.name << " " << c.describe() << " N " << n;
        EXPECT_EQ(s.rounds, s1.rounds) << row.name << " " << c.describe() << " N " << n;
        EXPECT_EQ(s.bytes, n * s1.bytes) << row.name << " " << c.describe() << " N " << n;
        if (!row.predict) continue;
        const HaloStats p1 = *row.predict(one), p = *row.predict(in);
        EXPECT_EQ(p.messages, p1.messages) << row.name << " N " << n;
        EXPECT_EQ(p.rounds, p1.rounds) << row.name << " N " << n;
        EXPECT_EQ(p.bytes, n * p1.bytes) << row.name << " N " << n;
      }
    }
  }
}

TEST(HaloManyFields, AWrongSetIsRefusedAndThePlanStaysUsable) {
  const test::Case c = cases().front();
  const test::BuiltPattern b = test::build_pattern(c);
  const core::FieldLayout& L = b.pattern.layout;
  core::FieldLayout other = L;
  other.halo.hi[0] += 1;
  EXPECT_THROW(make_halo_plan("p2p", {b.pattern, MPI_COMM_WORLD, &b.geo, core::GpuAwareMpiInput::kAuto, 0}),
               std::invalid_argument);
  for (const Backend& row : backends()) {
    if (!runs_here(row)) continue;
    auto plan = make_halo_plan(row.name, {b.pattern, MPI_COMM_WORLD, &b.geo, core::GpuAwareMpiInput::kAuto, 2});
    core::Field u("u", L), v("v", L), w("w", L), odd("odd", other);
    EXPECT_THROW(plan->start(u), core::Error) << row.name;                   // one field for a plan of two
    EXPECT_THROW(plan->start({&u, &v, &w}), core::Error) << row.name;        // three
    EXPECT_THROW(plan->start({&u, &odd}), core::Error) << row.name;          // another layout
    EXPECT_THROW(plan->start({&u, nullptr}), core::Error) << row.name;       // null
    EXPECT_THROW(plan->start({&u, &u}), core::Error) << row.name;            // the same field twice
    core::Field alias = u;                                                    // shares u's view
    EXPECT_THROW(plan->start({&u, &alias}), core::Error) << row.name;
    plan->start({&u, &v});  // still idle: a right set starts
    EXPECT_THROW(plan->finish(u), core::Error) << row.name;
    plan->finish({&u, &v});
    plan->exchange({&v, &w});
  }
}

// add() keeps the order, inline and past FieldSet::kInline (where the set moves to the heap).
TEST(HaloManyFields, AddedSetKeepsOrderPastItsInlineStorage) {
  const test::Case c = cases().front();
  const test::BuiltPattern b = test::build_pattern(c);
  const auto fields = encoded_fields(c, b.pattern.layout, FieldSet::kInline + 3);
  FieldSet set;
  for (size_t n = 0; n < fields.size(); ++n) {
    set.add(*fields[n]);
    ASSERT_EQ(set.size(), n + 1);
    for (size_t q = 0; q <= n; ++q) EXPECT_EQ(&set[q], fields[q].get()) << "field " << q << " of " << n + 1;
  }
  EXPECT_EQ(set.end() - set.begin(), static_cast<std::ptrdiff_t>(fields.size()));
}

}  // namespace
}  // namespace cartex
