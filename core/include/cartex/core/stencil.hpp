#pragma once
// A stencil is plain data: relative offsets and weights. kernels/ applies it, comm/halo derives the
// halo and the process neighborhood from it; nobody writes a neighbor list by hand.
//
// Weights include the grid spacing: L(u)_p = sum_q weight[q] * u[p + offset[q]] is the linear
// operator on the given grid (a Laplacian for the families below; a custom stencil may also hold
// first-derivative and reaction parts, stability.hpp gives its time-step limit). Families (formulas and tables: docs/stencils.md):
//   star, order 2r (r = 1..4)  per dimension d the 1D central second difference of order 2r:
//        sum_k c_k (u_{-k} + u_{+k}) / h_d^2 + c_0 u / h_d^2, summed over d (anisotropic h allowed);
//        c_k = 2 (-1)^(k+1) (r!)^2 / (k^2 (r-k)! (r+k)!), c_0 = -2 sum_k c_k.
//        Builtins 5pt (2D) and 7pt (3D) are the star of order 2.
//   box, radius 1, order 2 (compact; needs hx == hy (== hz)):
//        9pt  (2D)  1/(6h^2)  * [ 4 on faces, 1 on corners, -20 at the centre ]
//        27pt (3D)  1/(30h^2) * [ 14 on faces, 3 on edges, 1 on corners, -128 at the centre ]
//   custom: offsets and weights from the input or from a registered factory (stencil_registry.hpp).
//
// Point order is a contract: kernels add the points of a cell's update in the stencil's order (that
// makes results bitwise reproducible) and pick a specialised kernel by shape (the offsets in this
// order, kernels/src/stencil_plan.hpp), not by point count.
//   star: the centre first, then for d = x, y(, z): for k = 1..r: offset -k, then +k along d.
//   box:  lexicographic with x fastest: (dx, dy, dz) for dz, dy, dx each in -1, 0, 1 (dz = 0 in 2D).
//   custom: the order given.
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "cartex/core/grid.hpp"

namespace cartex::core {

// One relative offset (dx, dy, dz); dz == 0 in 2D.
using Offset = std::array<int, 3>;

// Per-side halo widths needed by a stencil: lo[d] cells below, hi[d] cells above, in dimension d.
struct HaloWidths {
  std::array<int, 3> lo{0, 0, 0};
  std::array<int, 3> hi{0, 0, 0};
  friend bool operator==(const HaloWidths& a, const HaloWidths& b) { return a.lo == b.lo && a.hi == b.hi; }
};

// Offsets and weights of a linear stencil operator on a particular grid.
struct Stencil {
  std::string name;
  int dim = 3;
  std::vector<Offset> offsets;
  std::vector<double> weights;

  int size() const { return static_cast<int>(offsets.size()); }
  // Halo widths: the largest reach of any offset on each side of each dimension.
  HaloWidths reach() const;
  // True if flipping the sign of any single coordinate maps the stencil onto itself with equal weights.
  bool is_mirror_symmetric() const;
  // The symbol sum_q w_q prod_d cos(k_d o_qd h_d): the eigenvalue of a mirror-symmetric stencil for
  // the mode prod_d sin(k_d x_d) (h is folded into k here: theta_d = k_d * h_d).
  double symbol(const std::array<double, 3>& theta) const;
  // The largest -symbol(theta) over theta in [0, pi]^dim (sampled, including every corner).
  double spectral_radius() const;
};

// Names of the builtin stencils for a dimension ("5pt", "9pt" in 2D; "7pt", "27pt" in 3D).
std::vector<std::string> builtin_stencil_names(int dim);

// Builds a builtin stencil for `grid`; throws std::invalid_argument with the reason when the name is
// unknown for the grid's dimension or the stencil needs equal spacing and the grid does not have it.
Stencil make_builtin_stencil(const std::string& name, const GlobalGrid& grid);

// An exact fraction num / den (den > 0, lowest terms).
struct Fraction {
  long num = 0;
  long den = 1;
  // The nearest double (num and den are exact doubles, so one division rounds once).
  double value() const { return static_cast<double>(num) / static_cast<double>(den); }
  friend bool operator==(const Fraction& a, const Fraction& b) { return a.num == b.num && a.den == b.den; }
};

// The star orders cartex builds: 2, 4, 6, 8 (radius = order / 2).
std::vector<int> star_orders();

// The 1D second-derivative coefficients of the central difference of order 2 * radius for unit
// spacing: [0] the centre c_0, [k] the weight c_k of both offsets -k and +k (k = 1..radius).
// Throws std::invalid_argument unless radius is 1..4.
std::vector<Fraction> star_coefficients(int radius);

// "star<order>", the name of the star stencil of that order.
std::string star_stencil_name(int order);

// Names that mean a stencil without any registration: the builtins of both dimensions and the star
// names. Neither a registered nor a custom stencil may take one.
std::vector<std::string> reserved_stencil_names();

// The star Laplacian of `order` (one of star_orders()) on `grid`, per dimension divided by h_d^2.
// Order 2 is bitwise the builtin 5pt/7pt except for its name. Throws std::invalid_argument.
Stencil make_star_stencil(int order, const GlobalGrid& grid);

// Why a stencil is not a usable operator. point() is the index of the offending point (or -1 when
// no single point is to blame); part() says whether the stencil as a whole, the point's offset or its
// weight is wrong, so a reader can point at the right entry of the input.
class InvalidStencil : public std::invalid_argument {
 public:
  enum class Part { kWhole, kOffset, kWeight };
  explicit InvalidStencil(const std::string& what, Part part = Part::kWhole, int point = -1)
      : std::invalid_argument(what), part_(part), point_(point) {}
  Part part() const { return part_; }
  int point() const { return point_; }

 private:
  Part part_;
  int point_;
};

// Throws InvalidStencil unless `s` is a usable linear operator on a `dim`-dimensional grid: at least
// one point; as many weights as offsets; s.dim == dim; no offset reaching into z in 2D; no offset
// twice; finite weights, not all zero. Any sum is fine (a non-zero sum is a reaction term); whether
// a time step is stable is time_step_limit's question (stability.hpp).
void validate_stencil(const Stencil& s, int dim);

// The derivative a custom stencil's unit-spacing weights approximate, hence their scaling by h:
// 2 (second derivative: divided by h^2), 1 (first derivative: divided by h), 0 (a value, e.g. a
// reaction rate, or weights already for this grid: used as given).
std::vector<int> stencil_derivatives();

// A custom stencil: `offsets` and `weights` as given, validated, the weights divided by h^derivative
// (derivative one of stencil_derivatives()). h is the spacing of the dimensions the stencil reaches
// (an offset with a non-zero component there), which must be equal (else std::invalid_argument): a
// stencil along x alone takes hx whatever hy and hz are. Throws InvalidStencil for bad data.
Stencil make_custom_stencil(const std::string& name, const std::vector<Offset>& offsets,
                            const std::vector<double>& weights, int derivative, const GlobalGrid& grid);

// `s` closed under shortening along each dimension d with closed[d]: for every offset o, every
// (.., t, ..) with |t| <= |o_d| is a point too (weight 0 where s has none), after s's own points.
// A wall that mirrors the interior (Neumann, Robin) lets a step read, through a ghost cell at depth m, the
// cell m deep inside: the step depends on the mirror images of its reach (Config's halo_stencil).
Stencil mirror_closed(const Stencil& s, const std::array<bool, 3>& closed);

// "[dx, dy]" in 2D, "[dx, dy, dz]" in 3D, for messages.
std::string offset_text(const Offset& o, int dim);

}  // namespace cartex::core
