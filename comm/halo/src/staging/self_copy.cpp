#include "staging/self_copy.hpp"

#include <algorithm>
#include <string>

#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

// The kernel label, made once (Kokkos takes a std::string: a literal would be copied on every launch).
const std::string kSelfCopy = "cartex::halo::self_copy";

// Cells per view plane of the last dimension with more than one cell (a 2D view's rows).
long plane_cells(const core::FieldLayout& layout) {
  int last = 2;
  while (last > 0 && layout.extent(last) == 1) --last;
  long plane = 1;
  for (int d = 0; d < last; ++d) plane *= layout.extent(d);
  return plane;
}

CopyRuns zip(const CellList& from, const CellList& to, const core::FieldLayout& layout) {
  core::require(from.size() == to.size(), "self copy: the two cell lists differ in length");
  CopyRuns::Builder runs(plane_cells(layout));
  auto t = to.begin();
  from.for_each([&](long f) { runs.add(f, *t++); });
  return runs.build();
}

// The copy left when the x ghosts of the block's rows hold their periodic images (the header's
// picture): a halo cell in such a row is dropped; one in an x ghost of another row takes its value
// from the same x of its source's row, a block row whose ghost holds the source's value (the source
// lies a multiple of the block's width away in x).
CopyRuns zip_filled_x(const CellList& from, const CellList& to, const core::FieldLayout& layout) {
  const long ex = layout.extent(0), ey = layout.extent(1), lo = layout.halo.lo[0], n = layout.box.n[0];
  const auto block_row = [&](long cell) {
    const long row = cell / ex, y = row % ey - layout.halo.lo[1], z = row / ey - layout.halo.lo[2];
    return y >= 0 && y < layout.box.n[1] && z >= 0 && z < layout.box.n[2];
  };
  CopyRuns::Builder runs(plane_cells(layout));
  auto t = to.begin();
  from.for_each([&](long f) {
    const long cell = *t++, x = cell % ex;
    if (x >= lo && x < lo + n) return runs.add(f, cell);
    if (block_row(cell)) return;
    core::require(block_row(f) && (f % ex - x) % n == 0, "self copy: an x ghost whose source is not its periodic image");
    runs.add(f - f % ex + x, cell);
  });
  return runs.build();
}

}  // namespace

SelfCopy::SelfCopy(const CellList& from, const CellList& to, const core::FieldLayout& layout, bool x_fillable)
    : runs_(zip(from, to, layout)), x_fillable_(x_fillable) {
  if (x_fillable_) runs_filled_x_ = zip_filled_x(from, to, layout);
}

void SelfCopy::run(const FieldSet& f) {
  const CopyRuns& runs = next_ == Next::kSkipFilledX ? runs_filled_x_ : runs_;
  next_ = Next::kAll;
  if (runs.cells() == 0) return;
  runs.within_fields(kSelfCopy, f);
  Kokkos::DefaultExecutionSpace().fence();  // not a global fence: see staged_buffers.cpp
}

bool x_ghosts_fillable(const PlanInputs& in) {
  if (!in.geometry) return false;
  const core::Decomposition& dec = in.geometry->decomposition();
  const core::FieldLayout& l = in.pattern.layout;
  return dec.procs().dims[0] == 1 && dec.grid().periodic[0] && l.halo.lo[0] + l.halo.hi[0] > 0 &&
         l.box.n[0] >= std::max(l.halo.lo[0], l.halo.hi[0]);
}

}  // namespace cartex::halo
