#include "staging/self_copy.hpp"

#include <string>

#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

// The kernel label, made once (Kokkos takes a std::string: a literal would be copied on every launch).
const std::string kSelfCopy = "cartex::halo::self_copy";

}  // namespace

namespace {

CopyRuns zip(const CellList& from, const CellList& to, const core::FieldLayout& layout) {
  core::require(from.size() == to.size(), "self copy: the two cell lists differ in length");
  // Planes of the last dimension with more than one cell (a 2D view's rows).
  int last = 2;
  while (last > 0 && layout.extent(last) == 1) --last;
  long plane = 1;
  for (int d = 0; d < last; ++d) plane *= layout.extent(d);
  CopyRuns::Builder runs(plane);
  auto t = to.begin();
  from.for_each([&](long f) { runs.add(f, *t++); });
  return runs.build();
}

}  // namespace

SelfCopy::SelfCopy(const CellList& from, const CellList& to, const core::FieldLayout& layout) : runs_(zip(from, to, layout)) {}

void SelfCopy::run(const FieldSet& f) const {
  if (cells() == 0) return;
  runs_.within_fields(kSelfCopy, f);
  Kokkos::DefaultExecutionSpace().fence();  // not a global fence: see staged_buffers.cpp
}

}  // namespace cartex::halo
