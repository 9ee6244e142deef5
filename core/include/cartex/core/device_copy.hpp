#pragma once
// A device copy of a host table (cell lists, weights, per-line factors), allocated without an
// initialisation kernel: the copy fills every element.
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace cartex::core {

template <class T>
Kokkos::View<T*> to_device(const std::string& label, const std::vector<T>& values) {
  Kokkos::View<T*> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), values.size());
  auto host = Kokkos::create_mirror_view(v);
  for (size_t i = 0; i < values.size(); ++i) host(i) = values[i];
  Kokkos::deep_copy(v, host);
  return v;
}

}  // namespace cartex::core
