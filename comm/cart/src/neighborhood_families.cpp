// Standard neighborhood generators (see stencils.hpp).
#include "cartex/cart/neighborhood_families.hpp"

#include <cstdlib>
#include <functional>

namespace cartex::cart {
namespace {

// All vectors with coordinates in lo..hi (row-major) that pass keep, as a flat list.
std::vector<int> box(int d, int lo, int hi, const std::function<bool(const std::vector<int>&)>& keep) {
  std::vector<int> out;
  std::vector<int> v(static_cast<std::size_t>(d), lo);
  while (true) {
    if (keep(v)) out.insert(out.end(), v.begin(), v.end());
    int k = d - 1;
    while (k >= 0 && v[static_cast<std::size_t>(k)] == hi) v[static_cast<std::size_t>(k--)] = lo;
    if (k < 0) break;
    ++v[static_cast<std::size_t>(k)];
  }
  return out;
}

bool nonzero(const std::vector<int>& v) {
  for (int x : v)
    if (x != 0) return true;
  return false;
}

}  // namespace

std::vector<int> dnf_offsets(int d, int n, int f) { return box(d, f, f + n - 1, nonzero); }

std::vector<int> moore_offsets(int d, int k) { return box(d, -k, k, nonzero); }

std::vector<int> von_neumann_offsets(int d, int k) {
  return box(d, -k, k, [k](const std::vector<int>& v) {
    int sum = 0;
    for (int x : v) sum += std::abs(x);
    return sum > 0 && sum <= k;
  });
}

}  // namespace cartex::cart
