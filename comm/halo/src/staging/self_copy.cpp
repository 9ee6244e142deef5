#include "staging/self_copy.hpp"

#include <algorithm>
#include <array>
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

// The copy left when the caller filled the periodic ghosts of x .. dimension `last` (0: x, 1: y) in
// the block's planes (the header's picture): a halo cell the caller filled is dropped; any other takes
// its value from its source's image with the cell's own coordinates in those dimensions (its source
// lies a multiple of the block's width away in each), a cell the caller filled or a block cell.
CopyRuns zip_filled(const CellList& from, const CellList& to, const core::FieldLayout& layout, int last) {
  const long ex = layout.extent(0), ey = layout.extent(1);
  const auto coords = [&](long cell) {
    return std::array<long, 3>{cell % ex - layout.halo.lo[0], cell / ex % ey - layout.halo.lo[1], cell / (ex * ey) - layout.halo.lo[2]};
  };
  const auto inside = [&](long c, int d) { return c >= 0 && c < layout.box.n[d]; };
  CopyRuns::Builder runs(plane_cells(layout));
  auto t = to.begin();
  from.for_each([&](long f) {
    const long cell = *t++;
    const auto c = coords(cell), s = coords(f);
    bool filled = true;  // every dimension past `last` within the block
    for (int d = last + 1; d < 3; ++d) filled = filled && inside(c[d], d);
    if (filled) return;
    long image = f;
    for (int d = 0; d <= last; ++d) {
      core::require(inside(s[d], d) && (s[d] - c[d]) % layout.box.n[d] == 0, "self copy: a ghost whose source is not its periodic image");
      image += (c[d] - s[d]) * (d == 0 ? 1 : ex);
    }
    runs.add(image, cell);
  });
  return runs.build();
}

}  // namespace

SelfCopy::SelfCopy(const CellList& from, const CellList& to, const core::FieldLayout& layout, int fillable_dims)
    : runs_(zip(from, to, layout)) {
  for (int d = 0; d < fillable_dims; ++d) runs_filled_.push_back(zip_filled(from, to, layout, d));
}

void SelfCopy::run(const FieldSet& f) {
  const CopyRuns& runs = filled_ > 0 ? runs_filled_[filled_ - 1] : runs_;
  filled_ = 0;
  if (runs.cells() == 0) return;
  runs.within_fields(kSelfCopy, f);
  Kokkos::DefaultExecutionSpace().fence();  // not a global fence: see staged_buffers.cpp
}

int fillable_dims_of(const PlanInputs& in) {
  if (!in.geometry) return 0;
  const core::Decomposition& dec = in.geometry->decomposition();
  const core::FieldLayout& l = in.pattern.layout;
  const auto fillable = [&](int d) {
    return dec.procs().dims[d] == 1 && dec.grid().periodic[d] && l.halo.lo[d] + l.halo.hi[d] > 0 &&
           l.box.n[d] >= std::max(l.halo.lo[d], l.halo.hi[d]);
  };
  return !fillable(0) ? 0 : dec.grid().dim >= 2 && fillable(1) ? 2 : 1;
}

}  // namespace cartex::halo
