#include "cartex/core/coefficient.hpp"

#include <algorithm>
#include <cmath>

#include "cartex/core/error.hpp"

namespace cartex::core {

namespace {
CoefficientFileScan g_file_scan = nullptr;
}  // namespace

void set_coefficient_file_scan(CoefficientFileScan scan) { g_file_scan = scan; }
CoefficientFileScan coefficient_file_scan() { return g_file_scan; }

const char* coefficient_form_name(CoefficientInput::Form form) {
  switch (form) {
    case CoefficientInput::Form::kNumber: return "number";
    case CoefficientInput::Form::kLayers: return "layers";
    case CoefficientInput::Form::kGaussian: return "gaussian";
    case CoefficientInput::Form::kHdf5: return "hdf5";
  }
  return "?";
}

long coefficient_source_index(const GlobalGrid& grid, int d, long g) {
  const long n = grid.n[d];
  if (d >= grid.dim) return 0;
  if (grid.periodic[d]) {
    const long r = g % n;
    return r < 0 ? r + n : r;
  }
  return std::clamp(g, 0L, n - 1);
}

double coefficient_value(const CoefficientInput& c, const GlobalGrid& grid, const std::array<long, 3>& cell) {
  switch (c.form) {
    case CoefficientInput::Form::kNumber: return c.value;
    case CoefficientInput::Form::kLayers: {
      const double p = grid.position(c.axis, cell[c.axis]);
      const auto layer = std::upper_bound(c.bounds.begin(), c.bounds.end(), p) - c.bounds.begin();
      return c.values.at(static_cast<size_t>(layer));
    }
    case CoefficientInput::Form::kGaussian: {
      double r2 = 0;
      for (int d = 0; d < grid.dim; ++d) {
        const double dx = grid.position(d, cell[d]) - c.center[d];
        r2 += dx * dx;
      }
      return c.background + (c.peak - c.background) * std::exp(-r2 / (2.0 * c.width * c.width));
    }
    case CoefficientInput::Form::kHdf5: break;
  }
  throw Error("coefficient_value: an hdf5 coefficient is read from its file (io::read_coefficient_file)");
}

}  // namespace cartex::core
