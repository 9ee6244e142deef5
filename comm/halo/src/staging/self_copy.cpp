#include "staging/self_copy.hpp"

#include <string>

#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

Kokkos::View<long*> to_device(const char* name, const std::vector<long>& cells) {
  Kokkos::View<long*> v(std::string(name), cells.size());
  auto host = Kokkos::create_mirror_view(v);
  for (size_t i = 0; i < cells.size(); ++i) host(i) = cells[i];
  Kokkos::deep_copy(v, host);
  return v;
}

}  // namespace

SelfCopy::SelfCopy(const std::vector<long>& from, const std::vector<long>& to)
    : from_(to_device("cartex::self_copy_from", from)), to_(to_device("cartex::self_copy_to", to)) {
  core::require(from.size() == to.size(), "self copy: the cells sent and received differ in number");
}

void SelfCopy::run(core::Field& f) const {
  if (cells() == 0) return;
  double* v = f.view.data();
  const auto from = from_;
  const auto to = to_;
  Kokkos::parallel_for("cartex::halo::self_copy", from.extent(0), KOKKOS_LAMBDA(long i) { v[to(i)] = v[from(i)]; });
  Kokkos::fence();
}

}  // namespace cartex::halo
