#pragma once
// The few Kokkos names that moved between 3.4 (Debian) and 4.x: device math functions live in
// Kokkos::Experimental before 3.7 and in Kokkos from 3.7 on (the Experimental ones are gone in 4.x).
#include <Kokkos_Core.hpp>

namespace cartex::kmath {

#if KOKKOS_VERSION >= 30700
using Kokkos::exp;
using Kokkos::sin;
#else
using Kokkos::Experimental::exp;
using Kokkos::Experimental::sin;
#endif

}  // namespace cartex::kmath
