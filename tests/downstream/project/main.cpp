// Uses every installed cartex library: a decomposition and stencil (core), a halo plan (halo), a
// stencil update and checksum (kernels), and a Cartesian neighborhood (comm). Prints "downstream ok"
// when the halo holds the owners' values.
#include <Kokkos_Core.hpp>
#include <cartex/cart/cx_cart.h>
#include <mpi.h>

#include <cartex/core/decomposition.hpp>
#include <cartex/halo/backends.hpp>
#include <cartex/kernels/diagnostics.hpp>
#include <cartex/kernels/stencil_update.hpp>
#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int bad = 0, rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    cartex::core::GlobalGrid g;
    g.n = {8, 8, 8};
    const auto pg = cartex::core::ProcessGrid::create(g, {0, 0, 0}, size);
    const cartex::core::Decomposition dec(g, pg);
    const auto st = cartex::core::make_builtin_stencil("7pt", g);
    const cartex::halo::HaloGeometry geo(dec, st, 1);
    const auto pattern = cartex::halo::make_halo_pattern(geo, rank);
    cartex::core::Field u("u", pattern.layout), v("v", pattern.layout);
    Kokkos::deep_copy(u.view, static_cast<double>(rank + 1));
    auto plan = cartex::halo::make_halo_plan("cart_combining", {pattern, MPI_COMM_WORLD, &geo});
    plan->exchange(u);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u.view);
    // The -z face halo comes from the process below in z (periodic).
    auto c = pg.coords(rank);
    c[2] = (c[2] - 1 + pg.dims[2]) % pg.dims[2];
    const double expect = pg.rank(c) + 1;
    if (h(0, 1, 1) != expect) bad = 1;
    cartex::kernels::StencilOperator(st, pattern.layout).apply(u, v, 1e-3);
    (void)cartex::kernels::field_checksum(v, g, MPI_COMM_WORLD);

    // comm/cart: a 1D ring neighborhood of +1 and -1.
    int dims[1] = {size}, periods[1] = {1}, rel[2] = {1, -1}, t = 0;
    MPI_Comm cart;
    if (CX_Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 2, rel, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &cart) != MPI_SUCCESS)
      bad = 1;
    if (CX_Cart_neighbor_count(cart, &t) != MPI_SUCCESS || t != 2) bad = 1;
    MPI_Comm_free(&cart);
  }
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) std::printf(any ? "downstream FAILED\n" : "downstream ok\n");
  MPI_Finalize();
  return any;
}
