// staging/pack_list: slots and padding of the packed buffer, and pack/unpack move exactly the listed
// cells (in list order, padding between slots never written).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <array>
#include <random>
#include <vector>

#include "cartex/core/error.hpp"
#include "staging/copy_runs.hpp"
#include "staging/pack_list.hpp"
#include "staging/self_copy.hpp"

namespace cartex {
namespace {

// A 4^3 block with a halo of one: a view of 6^3 = 216 cells, the linear index is the field cell.
core::Field make_field(const char* name) {
  core::FieldLayout layout;
  layout.box.n = {4, 4, 4};
  layout.halo.lo = {1, 1, 1};
  layout.halo.hi = {1, 1, 1};
  return core::Field(name, layout);
}

// The cells of box [lo, lo + n) in a view of extents e (x fastest), in z, y, x order.
std::vector<long> box_cells(const std::array<long, 3>& e, const std::array<long, 3>& lo, const std::array<long, 3>& n) {
  std::vector<long> out;
  for (long z = lo[2]; z < lo[2] + n[2]; ++z)
    for (long y = lo[1]; y < lo[1] + n[1]; ++y)
      for (long x = lo[0]; x < lo[0] + n[0]; ++x) out.push_back((z * e[1] + y) * e[0] + x);
  return out;
}

TEST(CellList, HoldsABoxAsOneStridedRunPerPlane) {
  const std::array<long, 3> e{20, 10, 6};
  const std::vector<long> x_face = box_cells(e, {2, 1, 1}, {3, 8, 4});  // 3 deep in x, 8 rows, 4 planes
  const halo::CellList list(x_face);
  EXPECT_EQ(list.size(), 3 * 8 * 4);
  EXPECT_EQ(list.runs(), 4u);  // rows of 3 at the row pitch; the plane step breaks the pitch
  EXPECT_EQ(list.cells(), x_face);
  EXPECT_EQ(std::vector<long>(list.begin(), list.end()), x_face);
  const std::vector<long> z_face = box_cells(e, {0, 0, 2}, {20, 10, 2});  // whole planes: one row
  EXPECT_EQ(halo::CellList(z_face).runs(), 1u);
}

TEST(CellList, RandomListsComeBackCellForCellAndAppendConcatenates) {
  std::mt19937 rng(40);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<long> cells;
    const int pieces = 1 + static_cast<int>(rng() % 5);
    for (int p = 0; p < pieces; ++p) {
      if (rng() % 2) {
        const std::array<long, 3> e{1 + static_cast<long>(rng() % 9), 1 + static_cast<long>(rng() % 7), 1 + static_cast<long>(rng() % 5)};
        std::array<long, 3> lo{}, n{};
        for (int d = 0; d < 3; ++d) {
          lo[d] = static_cast<long>(rng() % static_cast<unsigned long>(e[d]));
          n[d] = 1 + static_cast<long>(rng() % static_cast<unsigned long>(e[d] - lo[d]));
        }
        const auto b = box_cells(e, lo, n);
        cells.insert(cells.end(), b.begin(), b.end());
      } else {
        for (int c = static_cast<int>(rng() % 6); c > 0; --c) cells.push_back(static_cast<long>(rng() % 50));
      }
    }
    const size_t cut = cells.empty() ? 0 : rng() % (cells.size() + 1);
    const halo::CellList whole(cells);
    ASSERT_EQ(whole.cells(), cells) << "trial " << trial;
    ASSERT_EQ(std::vector<long>(whole.begin(), whole.end()), cells) << "trial " << trial;
    ASSERT_EQ(whole.size(), static_cast<long>(cells.size()));
    halo::CellList joined(std::vector<long>(cells.begin(), cells.begin() + static_cast<long>(cut)));
    joined.append(halo::CellList(std::vector<long>(cells.begin() + static_cast<long>(cut), cells.end())));
    ASSERT_EQ(joined.cells(), cells) << "trial " << trial << ", cut at " << cut;
  }
}

TEST(PackList, SlotsHoldTheirCellsThenPadding) {
  const halo::CellList a({0, 1, 2, 3}), b({4, 5, 7}), empty, c({30}), d({100, 99});
  const halo::PackList list({&a, &b, &empty, &c, &d});
  EXPECT_EQ(list.size(), 4 + 3 + 0 + 1 + 2);
  EXPECT_EQ(list.count(2), 0);
  const halo::PackList padded({&a, &b, &empty, &c}, {6, 3, 2, 2});
  EXPECT_EQ(padded.blocks(), 4u);
  EXPECT_EQ(padded.size(), 6 + 3 + 2 + 2);
  EXPECT_EQ(padded.offset(1), 6);
  EXPECT_EQ(padded.offset(3), 11);
}

TEST(PackList, PackAndUnpackMoveExactlyTheListedCellsAroundThePadding) {
  const halo::CellList a({0, 1, 2, 3}), b({4, 5, 7}), empty, c({30}), d({100, 99});
  const halo::PackList list({&a, &b, &empty, &c, &d}, {6, 3, 2, 2, 2});
  core::Field f = make_field("f");
  auto hf = Kokkos::create_mirror_view(f.view);
  for (size_t i = 0; i < hf.size(); ++i) hf.data()[i] = 1000.0 + static_cast<double>(i);
  Kokkos::deep_copy(f.view, hf);
  Kokkos::View<double*> buf("buf", list.size());
  Kokkos::deep_copy(buf, -1.0);
  list.pack(f, buf);
  Kokkos::fence();
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buf);
  const std::vector<double> expected{1000, 1001, 1002, 1003, -1, -1, 1004, 1005, 1007, -1, -1, 1030, -1, 1100, 1099};
  ASSERT_EQ(hb.extent(0), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(hb(i), expected[i]) << "buffer position " << i;

  core::Field g = make_field("g");
  Kokkos::deep_copy(g.view, 0.0);
  list.unpack(g, buf);
  Kokkos::fence();
  auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.view);
  for (size_t i = 0; i < hg.size(); ++i) {
    const bool listed = i <= 5 || i == 7 || i == 30 || i == 99 || i == 100;
    EXPECT_EQ(hg.data()[i], listed ? 1000.0 + static_cast<double>(i) : 0.0) << "field cell " << i;
  }
}

TEST(CopyRuns, ARunEndsWhereEitherSideStopsAdvancingByOne) {
  // Runs: a 10-12 -> b 0-2, 20-21 -> 3-4 (a jumps), 22-23 -> 6-7 (b jumps), 9 -> 8, 8 -> 9 (a goes back).
  const std::vector<long> a{10, 11, 12, 20, 21, 22, 23, 9, 8};
  const std::vector<long> b{0, 1, 2, 3, 4, 6, 7, 8, 9};
  const halo::CopyRuns runs(a, b);
  EXPECT_EQ(runs.cells(), 9);
  // Rows 20-21 and 22-23 (steps 2 / 3) fold into one 2D run, and 9 and 8 (steps -1 / 1) into another.
  EXPECT_EQ(runs.runs(), 3);
  std::vector<double> from(30), to(10, -1.0);
  for (size_t i = 0; i < from.size(); ++i) from[i] = static_cast<double>(i);
  Kokkos::View<double*, Kokkos::HostSpace> hf(from.data(), from.size()), ht(to.data(), to.size());
  Kokkos::View<double*> df("from", from.size()), dt("to", to.size());
  Kokkos::deep_copy(df, hf);
  Kokkos::deep_copy(dt, ht);
  runs.a_to_b("test", df.data(), dt.data());
  Kokkos::fence();
  Kokkos::deep_copy(ht, dt);
  const std::vector<double> expected{10, 11, 12, 20, 21, -1, 22, 23, 9, 8};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(to[i], expected[i]) << "position " << i;
  EXPECT_THROW(halo::CopyRuns({1, 2}, {1}), core::Error);
  std::vector<long> along(5000);
  for (size_t i = 0; i < along.size(); ++i) along[i] = static_cast<long>(i);
  EXPECT_EQ(halo::CopyRuns(along, along).runs(), 3);  // 2048 + 2048 + 904: the threads share a long run
}

TEST(CopyRuns, RowsAtConstantStepsFoldIntoFewRunsAndCopyExactly) {
  // An x face: 300 rows of 3 cells at pitch 20 in a, packed at pitch 3 in b; 2048 / 3 = 682 rows a run
  // at most, so 900 cells are one run. Then a second face whose steps differ starts another.
  std::vector<long> a, b;
  for (long row = 0; row < 300; ++row)
    for (long c = 0; c < 3; ++c) a.push_back(5 + 20 * row + c), b.push_back(3 * row + c);
  for (long row = 0; row < 4; ++row)
    for (long c = 0; c < 3; ++c) a.push_back(7000 + 41 * row + c), b.push_back(900 + 3 * row + c);
  const halo::CopyRuns runs(a, b);
  EXPECT_EQ(runs.cells(), 912);
  EXPECT_EQ(runs.runs(), 2);
  Kokkos::View<double*> from("from", 8000), to("to", 912);
  auto hf = Kokkos::create_mirror_view(from);
  for (size_t i = 0; i < hf.size(); ++i) hf(i) = static_cast<double>(i);
  Kokkos::deep_copy(from, hf);
  runs.a_to_b("test", from.data(), to.data());
  Kokkos::fence();
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), to);
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(ht(b[i]), static_cast<double>(a[i])) << "cell " << i;
}

TEST(CopyRuns, PlanesKeepRunsInsideOnePlaneOrderedByPlaneAndCopyExactly) {
  // Two x faces of a 10 x 6 x 5 view (planes of 60 cells), one after the other as a pattern lists
  // its blocks: each face folds into one run per plane, the runs come plane by plane (both faces of
  // plane 0, then of plane 1, ...), and every cell still lands where it should.
  const long ex = 10, ey = 6, ez = 5, plane = ex * ey;
  std::vector<long> a, b;
  for (const long side : {0L, 1L})
    for (long z = 0; z < ez; ++z)
      for (long y = 0; y < ey; ++y)
        for (long c = 0; c < 2; ++c) {
          const long row = (z * ey + y) * ex;
          a.push_back(row + (side ? 2 : 6) + c);
          b.push_back(row + (side ? 8 : 0) + c);
        }
  halo::CopyRuns::Builder flat, by_plane(plane);
  for (size_t i = 0; i < a.size(); ++i) flat.add(a[i], b[i]), by_plane.add(a[i], b[i]);
  EXPECT_EQ(flat.build().runs(), 2);  // 30 rows of 2 fold into one run per face
  const halo::CopyRuns runs = by_plane.build();
  EXPECT_EQ(runs.runs(), 2 * ez);
  EXPECT_EQ(runs.cells(), static_cast<long>(a.size()));
  Kokkos::View<double*> field("field", ex * ey * ez);
  auto h = Kokkos::create_mirror_view(field);
  for (size_t i = 0; i < h.size(); ++i) h(i) = static_cast<double>(i);
  Kokkos::deep_copy(field, h);
  runs.a_to_b("test", field.data(), field.data());
  Kokkos::fence();
  Kokkos::deep_copy(h, field);
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(h(b[i]), static_cast<double>(a[i])) << "cell " << i;
}

TEST(SelfCopy, CopiesInteriorCellsToHaloCellsOfTheSameField) {
  core::Field f = make_field("f");
  auto hf = Kokkos::create_mirror_view(f.view);
  for (size_t i = 0; i < hf.size(); ++i) hf.data()[i] = static_cast<double>(i);
  Kokkos::deep_copy(f.view, hf);
  const std::vector<long> from{43, 44, 45, 46, 49}, to{1, 2, 3, 4, 200};
  halo::SelfCopy copy{halo::CellList(from), halo::CellList(to), f.layout};
  EXPECT_EQ(copy.cells(), 5);
  copy.run(f);
  Kokkos::deep_copy(hf, f.view);
  for (size_t i = 0; i < hf.size(); ++i) {
    double want = static_cast<double>(i);
    for (size_t c = 0; c < to.size(); ++c)
      if (static_cast<long>(i) == to[c]) want = static_cast<double>(from[c]);
    EXPECT_EQ(hf.data()[i], want) << "field cell " << i;
  }
}

}  // namespace
}  // namespace cartex
