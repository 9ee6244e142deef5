#pragma once
// The canonical evaluation order of a stencil sum (stated in stencil_update.hpp) as data, and the
// recognition of the shapes that have a specialized kernel.
//
// A plan groups the points by weight and each group's points by x offset; the points of a group with
// one x offset lie on a set of lines (dy, dz) through the cell's x position, a "column". Every kernel,
// specialized or generic, evaluates exactly the expression tree of the plan, which is what makes them
// bitwise equal:
//
//   column value at x   = sum of u over its lines at x, left to right in stencil order
//   group sum G_g       = sum of its parts' column values at x + dx, left to right by ascending dx
//   acc                 = w_0 * G_0 + w_1 * G_1 + ..., left to right in group order
//
// Columns that several parts share (the box stencils') can then be summed once per x position and
// reused at x - 1, x, x + 1.
#include <array>
#include <string>
#include <vector>

#include "cartex/core/stencil.hpp"

namespace cartex::kernels::detail {

struct StencilPlan {
  struct Line {
    int dy = 0, dz = 0;
    friend bool operator==(const Line& a, const Line& b) { return a.dy == b.dy && a.dz == b.dz; }
  };
  struct Part {
    int column = 0;  // index into columns
    int dx = 0;
  };
  struct Group {
    double weight = 0;        // the weight of the group's first point
    std::vector<Part> parts;  // ascending dx
  };
  std::vector<std::vector<Line>> columns;  // distinct columns, in order of first use by the groups
  std::vector<Group> groups;               // in order of the first appearance of their weight

  // The largest |dx| of a part that uses column c.
  int reach_x(int c) const;
  // The number of parts that use column c.
  int uses(int c) const;
};

// The plan of `s`: groups by exact weight equality (==), parts by dx, columns by their line lists.
StencilPlan make_plan(const core::Stencil& s);

// True if a and b have the same columns, parts and groups (weights aside).
bool same_structure(const StencilPlan& a, const StencilPlan& b);

// The kernel that evaluates a plan: a specialized shape, or the generic kernel.
struct KernelShape {
  enum Kind { kGeneric, kStar, kBox9, kBox27 };
  Kind kind = kGeneric;
  int dim = 0;     // 2 or 3
  int radius = 0;  // star: 1 .. 4
  // star: spacing class of each dimension (0 for x; dimensions whose weights are equal share the
  // class of the first of them). All equal: isotropic.
  std::array<int, 3> cls{0, 0, 0};

  // "star<3,4>", "star<3,1,x|yz>", "box27", "generic".
  std::string name() const;
};

// The specialized kernel for `s` if its offsets, in order, are a star of radius 1..4 (the centre, then
// for d in x, y(, z) and k = 1..r the offsets -k, +k) or the 3x3(x3) box in (dz, dy, dx) loop order,
// and its plan has the structure that kernel evaluates; otherwise kGeneric.
KernelShape recognize(const core::Stencil& s, const StencilPlan& plan);

}  // namespace cartex::kernels::detail
