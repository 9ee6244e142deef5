#include "halo_test_support.hpp"

namespace cartex::test {

core::Stencil shaped_stencil(const std::string& shape, int r, int dim) {
  core::Stencil s;
  s.name = shape + std::to_string(r);
  s.dim = dim;
  const int rz = dim == 3 ? r : 0;
  for (int z = -rz; z <= rz; ++z)
    for (int y = -r; y <= r; ++y)
      for (int x = -r; x <= r; ++x) {
        const int nonzero = (x != 0) + (y != 0) + (z != 0);
        bool keep = shape == "box" || nonzero <= 1;
        if (shape == "upwind") keep = nonzero <= 1 && x <= 1 && y <= 1 && z <= 1 && z >= -1;
        if (shape == "down") keep = nonzero <= 1 && (dim == 3 ? z : y) <= 0;
        // Two dimensions, opposite and equal steps: (-j, +j) and (+j, -j) in each plane.
        if (shape == "skew") keep = nonzero == 0 || (nonzero == 2 && x + y + z == 0);
        if (keep) {
          s.offsets.push_back({x, y, z});
          s.weights.push_back(0.0);
        }
      }
  return s;
}

core::GlobalGrid Case::grid() const {
  core::GlobalGrid g;
  g.dim = dim;
  g.n = n;
  g.periodic = periodic;
  if (dim == 2) g.periodic[2] = true;
  return g;
}

std::string Case::describe() const {
  std::string s = std::to_string(n[0]) + "x" + std::to_string(n[1]) + (dim == 3 ? "x" + std::to_string(n[2]) : "");
  s += " periodic ";
  for (int d = 0; d < dim; ++d) s += periodic[d] ? "1" : "0";
  return s + " " + shape + " r" + std::to_string(radius) + " k" + std::to_string(k);
}

std::vector<Case> exchange_cases(int ranks) {
  const std::vector<std::array<bool, 3>> periodicity = {
      {true, true, true}, {false, false, false}, {true, false, false}, {false, true, true}};
  std::vector<Case> out;
  const bool big = ranks >= 6;  // 6-8 oversubscribed ranks: fewer, smaller cases
  for (size_t p = 0; p < periodicity.size(); ++p) {
    // 2D: radius 1-4, k 1-3 (reach up to 6 with radius 2 and k 3), star, box and upwind.
    out.push_back({2, {13, 11, 1}, periodicity[p], "star", 1 + static_cast<int>(p), 1});
    out.push_back({2, {13, 11, 1}, periodicity[p], p % 2 ? "box" : "upwind", 2, 3});
    out.push_back({2, {9, 10, 1}, periodicity[p], "box", 1, 2});
    // 3D: star and box, radius 1-2 with k up to 2, radius 3 with k 1.
    out.push_back({3, {9, 8, 7}, periodicity[p], "star", 1, 1 + static_cast<int>(p % 3)});
    out.push_back({3, {9, 8, 7}, periodicity[p], "box", 1, p % 2 ? 2 : 1});
    if (!big) {
      out.push_back({3, {8, 7, 9}, periodicity[p], "star", 3, 1});
      out.push_back({3, {7, 7, 8}, periodicity[p], "box", 2, 1});
      out.push_back({3, {7, 6, 8}, periodicity[p], "upwind", 2, 2});
    }
  }
  out.push_back({2, {12, 10, 1}, {true, true, true}, "star", 4, 1});
  out.push_back({2, {12, 10, 1}, {false, true, true}, "box", 4, 1});
  // Corners but no faces' worth of ghosts in the other dimensions (p2p's whole planes missed them:
  // campaign seed 1142 case 312).
  out.push_back({2, {7, 10, 1}, {true, true, true}, "skew", 1, 1});
  out.push_back({3, {6, 5, 8}, {true, true, true}, "skew", 1, 2});
  return out;
}

}  // namespace cartex::test
