#pragma once
// The kinds of wall a face of the domain can have (boundary.* in docs/input.md; ghost cells drawn in
// docs/boundaries.md), one row each. Everything that depends on a face's kind asks its row: the
// reader and the resolved YAML (core/src/walls/), cell positions (GlobalGrid), the ghost cells' fill
// (kernels::Boundary, kernels::WallFill), the halo (halo_stencil), the input checks.
//
//   kind            input                         wall at   ghost cells                   fill      exact  mirrors
//   periodic        periodic                      -         the halo exchange's           none      -      -
//   dirichlet       {dirichlet: v}                1         v                             constant  -      -
//   dirichlet exact {dirichlet: exact}            1         exact solution at x_g         exact     yes    -
//   neumann         {neumann: q}                  1/2       u_m + (2m+1) h q              mirror    -      yes
//   robin           {robin: {a: a, b: b, g: g}}   1/2       a (u_g+u_m)/2                 mirror    -      yes
//                                                           + b (u_g-u_m)/((2m+1)h) = g
//
//   wall at:  the face's offset o (GlobalGrid): 1, the wall on the first ghost cell; 1/2, half a cell
//             outside the last cell, so that ghost layer m (0 next to the wall) and its mirror, cell m
//             inside, lie at the same distance (m + 1/2) h from it.
//   fill:     constant: once per field (kernels::fill_dirichlet); mirror: after every step, from the
//             mirror cell by the row's Robin coefficients (a u + b du/dn = g, outward normal: Neumann
//             is a = 0, b = 1, g = q, the same bits as u_m + (2m+1) h q); exact: after every step, the
//             equation's exact solution (needs one, and init.type sine).
//   mirrors:  the ghost cells read the interior, so the stencil is closed along the dimension
//             (halo_stencil) and its reach on that side must fit in the grid (reach <= n).
//
// A new kind: one value of WallKind, one file under core/src/walls/ defining its row, one entry in
// core/src/walls/rows.cpp's table.
#include <array>
#include <string>

namespace YAML {
class Node;
}

namespace cartex::core {

namespace detail {
class YamlSection;
}

struct BoundaryFace;

// The kinds, in the order of the rows' table (wall_kind_rows()).
enum class WallKind { kPeriodic, kDirichlet, kDirichletExact, kNeumann, kRobin };
inline constexpr int kWallKinds = 5;

// How a face's ghost cells are filled (the table's "fill" column).
enum class WallFillRule {
  kNone,      // periodic: the halo exchange writes them
  kConstant,  // once per field: the row's constant(face)
  kMirror,    // after every step: from the mirror cell, by the row's mirror(face) coefficients
  kExact,     // after every step: the equation's exact solution at the ghost's position
};

// a u + b du/dn = g at the wall (n the outward normal), discretised between ghost layer m and its
// mirror cell m at distance d = (2m + 1) h: a (u_g + u_m) / 2 + b (u_g - u_m) / d = g.
struct RobinCoefficients {
  double a = 0.0, b = 1.0, g = 0.0;
};

// One kind of wall.
struct WallKindRow {
  WallKind kind;
  const char* word;         // the input's word: {word: value}, or the bare word (periodic)
  bool bare;                // spelled as the bare word (periodic), not as {word: value}
  const char* value_type;   // the value after the word for the key table ("number", "exact", "{a, b, g}")
  const char* value_text;   // the value after the word for messages ("a number (the outward ...)")
  const char* title;        // "Neumann": "a Neumann wall mirrors ..."
  double offset;            // where the wall sits: 1 (on the first ghost cell) or 0.5 (half a cell outside)
  WallFillRule fill;
  bool needs_exact;         // its ghost cells are the exact solution (init.type sine, an equation with one)
  bool mirrors;             // its ghost cells mirror the interior (halo_stencil, reach <= n)
  bool sine_cosine;         // the sine mode's factor is a cosine when the low wall is of this kind (even)
  // Reads the face from `value`, the node after the word (undefined for a bare word); fails at `key`.
  BoundaryFace (*read)(detail::YamlSection& s, const std::string& key, const YAML::Node& value);
  // Whether this row reads `value` among the rows of its word (nullptr: any value).
  bool (*claims)(const YAML::Node& value);
  // The face as the resolved YAML writes it: reloads to the same bits.
  YAML::Node (*write)(const BoundaryFace& f);
  // kConstant: the ghost cells' value.
  double (*constant)(const BoundaryFace& f);
  // kMirror: the Robin coefficients of the ghost rule.
  RobinCoefficients (*mirror)(const BoundaryFace& f);
  // Whether the face's ghost cells continue the sine mode exactly for a stencil of `reach` cells on its side.
  bool (*continues_sine)(const BoundaryFace& f, long reach);
};

// The row of `kind`.
const WallKindRow& wall_kind_row(WallKind kind);
// Every row, in the order of WallKind.
const std::array<const WallKindRow*, kWallKinds>& wall_kind_rows();

}  // namespace cartex::core
