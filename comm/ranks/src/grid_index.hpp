// Row-major grid positions, last dimension fastest (the MPI_Cart_create numbering).
#pragma once

#include <vector>

namespace cartex::ranks::detail {

// Number of cells of a grid.
inline int volume(const std::vector<int>& dims) {
  int n = 1;
  for (int x : dims) n *= x;
  return n;
}

// Coordinates of position g.
inline std::vector<int> coords(int g, const std::vector<int>& dims) {
  std::vector<int> c(dims.size());
  for (std::size_t i = dims.size(); i-- > 0;) c[i] = g % dims[i], g /= dims[i];
  return c;
}

// Position of coordinates c.
inline int index(const std::vector<int>& c, const std::vector<int>& dims) {
  int g = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) g = g * dims[i] + c[i];
  return g;
}

}  // namespace cartex::ranks::detail
