#pragma once
// A coefficient that varies in space (heat's physics.alpha, docs/input.md): one number, or a field
// given by a form. The analytic forms are evaluated here, on the host, per global cell; an HDF5
// dataset is read by cartex::io (coefficient_file.hpp). Which cell a halo cell takes its value from:
//
//   dimension      halo cell at global index g    value of
//   periodic       any g                          cell g mod n   (a ghost equals its owner: same bits
//                                                                 on every rank count)
//   non-periodic   g < 0 or g >= n (a wall cell)  cell clamp(g, 0, n-1), so the face between a wall
//                                                                 and the first cell has that cell's value
#include <array>
#include <string>
#include <vector>

#include "cartex/core/grid.hpp"

namespace cartex::core {

struct CoefficientInput {
  enum class Form { kNumber, kLayers, kGaussian, kHdf5 };
  Form form = Form::kNumber;
  double value = 1.0;              // number: the coefficient everywhere
  int axis = 0;                    // layers: the axis (x = 0) the layers stack along
  std::vector<double> bounds;      // layers: increasing positions between layers (physical units)
  std::vector<double> values;      // layers: one per layer, bounds.size() + 1, lowest position first
  double background = 1.0;         // gaussian: value far from the centre
  double peak = 1.0;               // gaussian: value at the centre
  std::array<double, 3> center{0, 0, 0};  // gaussian: centre (physical units)
  double width = 0.1;              // gaussian: standard deviation (physical units)
  std::string file, dataset;       // hdf5: file name and dataset path, shape (nz, ny, nx) of the grid

  bool is_field() const { return form != Form::kNumber; }
};

// "number", "layers", "gaussian" or "hdf5".
const char* coefficient_form_name(CoefficientInput::Form form);

// The global cell whose value a (halo) cell at global index g takes (the header's table), per dimension.
long coefficient_source_index(const GlobalGrid& grid, int d, long g);

// The value of an analytic form (number, layers, gaussian) at global cell `cell` of `grid` (inside
// the grid: map halo cells with coefficient_source_index first). Layers: the layer of the cell's
// position p along `axis` is the first j with p < bounds[j] (the last one when there is none).
// Gaussian: background + (peak - background) exp(-r^2 / (2 width^2)), r the distance to the centre.
double coefficient_value(const CoefficientInput& c, const GlobalGrid& grid, const std::array<long, 3>& cell);

// The smallest and largest value of an hdf5 form's dataset, for the input's checks (positive
// everywhere, the time-step limit); throws cartex::core::Error naming what is wrong with the file.
// cartex::io provides it (io::scan_coefficient_file) and the apps install it before loading an input:
// core does not read HDF5 itself.
using CoefficientFileScan = std::array<double, 2> (*)(const std::string& file, const std::string& dataset, const GlobalGrid& grid);
void set_coefficient_file_scan(CoefficientFileScan scan);
CoefficientFileScan coefficient_file_scan();

}  // namespace cartex::core
