#pragma once
// Internal: comm/cart's C++ Neighborhood over the halo pattern's offsets, for the backends on
// comm/cart's collectives (ICPP'19). The halo neighborhood is isomorphic (every rank lists the same
// offsets), so comm/cart takes it as it is.
#include <cartex/cart/neighborhood.hpp>

#include <utility>

#include "cartex/halo/geometry.hpp"
#include "cartex/halo/pattern.hpp"

namespace cartex::halo {

// The pattern's neighborhood on the decomposition's process grid (collective over comm).
cart::Neighborhood cart_neighborhood(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm,
                                     cart::Algorithm algorithm, cart::Execution execution);

// Throws cartex::core::Error "CALL failed on rank R: what" for comm/cart's own error.
[[noreturn]] void rethrow_cart_error(const char* call, const cart::Error& e);

// Runs f(), turning a comm/cart error into cartex's Error naming `call`.
template <class F>
auto cart_call(const char* call, F&& f) -> decltype(f()) {
  try {
    return std::forward<F>(f)();
  } catch (const cart::Error& e) {
    rethrow_cart_error(call, e);
  }
}

}  // namespace cartex::halo
