#include "staging/self_copy.hpp"

#include <string>

namespace cartex::halo {

namespace {

// The kernel label, made once (Kokkos takes a std::string: a literal would be copied on every launch).
const std::string kSelfCopy = "cartex::halo::self_copy";

}  // namespace

SelfCopy::SelfCopy(const std::vector<long>& from, const std::vector<long>& to) : runs_(from, to) {}

void SelfCopy::run(const FieldSet& f) const {
  if (cells() == 0) return;
  runs_.within_fields(kSelfCopy, f);
  Kokkos::DefaultExecutionSpace().fence();  // not a global fence: see staged_buffers.cpp
}

}  // namespace cartex::halo
