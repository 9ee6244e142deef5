#pragma once
// The few Kokkos names that moved between 3.4 (Debian), 4.x and 5.x: device math functions live in
// Kokkos::Experimental before 3.7 and in Kokkos from 3.7 on (the Experimental ones are gone in 4.x);
// View::HostMirror is deprecated in 5.x for View::host_mirror_type, which in 3.x names another type.
#include <Kokkos_Core.hpp>

#include <utility>

// Tells the compiler that a host loop has no dependencies between iterations (its stores never feed its
// loads), so it vectorises stencil loops with many loads instead of giving up on alias checks.
#if defined(__clang__)
#define CARTEX_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__) && !defined(__CUDA_ARCH__)
#define CARTEX_IVDEP _Pragma("GCC ivdep")
#else
#define CARTEX_IVDEP
#endif

namespace cartex::core {

// The host mirror of view type V: the type Kokkos::create_mirror_view returns for it, in every version.
template <class V>
using host_mirror_t = decltype(Kokkos::create_mirror_view(std::declval<const V&>()));

}  // namespace cartex::core

namespace cartex::core::kmath {

#if KOKKOS_VERSION >= 30700
using Kokkos::exp;
using Kokkos::sin;
#else
using Kokkos::Experimental::exp;
using Kokkos::Experimental::sin;
#endif

}  // namespace cartex::core::kmath
