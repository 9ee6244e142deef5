#include "staging/self_copy.hpp"

#include <string>

#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

// The kernel label, made once (Kokkos takes a std::string: a literal would be copied on every launch).
const std::string kSelfCopy = "cartex::halo::self_copy";

}  // namespace

namespace {

CopyRuns zip(const CellList& from, const CellList& to) {
  core::require(from.size() == to.size(), "self copy: the two cell lists differ in length");
  CopyRuns::Builder runs;
  auto t = to.begin();
  from.for_each([&](long f) { runs.add(f, *t++); });
  return runs.build();
}

}  // namespace

SelfCopy::SelfCopy(const CellList& from, const CellList& to) : runs_(zip(from, to)) {}

void SelfCopy::run(const FieldSet& f) const {
  if (cells() == 0) return;
  runs_.within_fields(kSelfCopy, f);
  Kokkos::DefaultExecutionSpace().fence();  // not a global fence: see staged_buffers.cpp
}

}  // namespace cartex::halo
