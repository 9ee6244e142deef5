// Standard neighborhoods as flattened offset lists (t*d ints): the (d, n, f) family of the ICPP'19
// experiments (section 4.1.1) and the Moore / von Neumann radius-k neighborhoods of EuroMPI'15
// (section 7.1). The zero vector is excluded; offsets are in row-major order.
#pragma once

#include <vector>

namespace cartex::cart {

// All vectors with every coordinate in f .. f+n-1, except the zero vector (t = n^d - 1 when
// f <= 0 <= f+n-1).
std::vector<int> dnf_offsets(int d, int n, int f);

// Chebyshev distance 1..k (t = (2k+1)^d - 1).
std::vector<int> moore_offsets(int d, int k);

// Manhattan distance 1..k.
std::vector<int> von_neumann_offsets(int d, int k);

}  // namespace cartex::cart
