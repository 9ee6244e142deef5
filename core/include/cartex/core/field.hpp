#pragma once
// A field is one rank's block of the global grid plus its halo, stored in a Kokkos view in the
// default memory space.
//
// The one place that says how x, y, z map to Kokkos indices: LayoutRight view(k, j, i) with
// i along x (contiguous), j along y, k along z. Local cell (x, y, z) of the interior, 0 <= x < n.x,
// sits at view(z + halo.lo.z, y + halo.lo.y, x + halo.lo.x). A 2D field has extent 1 in k.
//
//      view index i:  0        halo.lo.x       halo.lo.x + n.x      extent(0)
//                     |  halo    |    interior     |    halo    |
//           j (y) ^   +----------+-----------------+------------+  extent(1)
//                 |   |  corner  |    face (+y)    |  corner    |
//                 |   +----------+-----------------+------------+  halo.lo.y + n.y
//                 |   | face(-x) |    interior     |  face(+x)  |
//                 |   +----------+-----------------+------------+  halo.lo.y
//                 |   |  corner  |    face (-y)    |  corner    |
//                     +----------+-----------------+------------+  0
#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#include "cartex/core/box.hpp"
#include "cartex/core/huge_pages.hpp"
#include "cartex/core/stencil.hpp"

namespace cartex::core {

// A run of cells along x in a view: linear view indices [start, start + length).
struct LineRun {
  long start = 0;
  long length = 0;
};

// Storage of a field: view(k, j, i), see the header comment.
using FieldView = Kokkos::View<double***, Kokkos::LayoutRight>;

// Where a rank's interior and halo sit inside its view.
struct FieldLayout {
  Box box;          // the interior, in global cell coordinates
  HaloWidths halo;  // halo cells on each side

  // View extent along dimension d (x = 0): interior plus both halo sides.
  long extent(int d) const { return box.n[d] + halo.lo[d] + halo.hi[d]; }
  // View index along dimension d of global cell index g (may lie in the halo, or outside the view).
  long view_index(int d, long g) const { return g - box.lo[d] + halo.lo[d]; }
  // Global cell index along dimension d of view index v (before any periodic wrap).
  long global_index(int d, long v) const { return v - halo.lo[d] + box.lo[d]; }
};

// A named field with its layout and storage.
struct Field {
  FieldLayout layout;
  FieldView view;

  Field() = default;
  // Zero-filled, as a default-initialized view is; host memory asks for huge pages before the fill
  // touches it (huge_pages.hpp).
  Field(const std::string& name, const FieldLayout& l)
      : layout(l), view(Kokkos::view_alloc(Kokkos::WithoutInitializing, name), l.extent(2), l.extent(1), l.extent(0)) {
    if constexpr (std::is_same_v<FieldView::memory_space, Kokkos::HostSpace>) {
      advise_huge_pages(view.data(), view.size() * sizeof(double));
    }
    Kokkos::deep_copy(view, 0.0);
  }
};

}  // namespace cartex::core
