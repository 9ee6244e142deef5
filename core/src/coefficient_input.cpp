#include "coefficient_input.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "cartex/core/error.hpp"

namespace cartex::core::detail {

namespace {

const char* const kForms = "a positive number or a mapping with one of layers, gaussian, hdf5";

double positive(YamlSection& s, const std::string& key) {
  const double v = s.get_double(key, "a positive number");
  if (!(v > 0)) s.fail(key, fmt::format("expected a positive number, got {}", v));
  return v;
}

void read_layers(YamlSection& s, const GlobalGrid& grid, CoefficientInput& c) {
  const std::string axis = s.get_string("axis", grid.dim == 3 ? "x, y or z" : "x or y");
  const std::string axes = grid.dim == 3 ? "xyz" : "xy";
  if (axis.size() != 1 || axes.find(axis[0]) == std::string::npos)
    s.fail("axis", fmt::format("expected {}, got \"{}\"", grid.dim == 3 ? "x, y or z" : "x or y (the grid is 2D)", axis));
  c.axis = static_cast<int>(axes.find(axis[0]));
  if (!s.has("bounds")) s.fail("bounds", "required key is missing (a list of increasing positions between the layers)");
  if (!s.has("values")) s.fail("values", "required key is missing (a list of positive numbers, one per layer)");
  c.bounds = s.get_double_list("bounds", "a list of increasing finite numbers (positions between the layers)");
  c.values = s.get_double_list("values", "a list of positive numbers (one per layer)");
  const YAML::Node bounds = s.node("bounds"), values = s.node("values");
  for (size_t j = 0; j < c.bounds.size(); ++j) {
    if (j > 0 && !(c.bounds[j] > c.bounds[j - 1]))
      s.fail_entry("bounds", bounds[j], fmt::format("expected increasing positions, got {} after {}", c.bounds[j], c.bounds[j - 1]));
  }
  if (c.values.size() != c.bounds.size() + 1)
    s.fail("values", fmt::format("expected {} values (one more than bounds: one per layer), got {}", c.bounds.size() + 1,
                                 c.values.size()));
  for (size_t j = 0; j < c.values.size(); ++j)
    if (!(c.values[j] > 0))
      s.fail_entry("values", values[j], fmt::format("expected a positive number, got {}", c.values[j]));
  s.finish();
}

void read_gaussian(YamlSection& s, const GlobalGrid& grid, CoefficientInput& c) {
  if (!s.has("peak")) s.fail("peak", "required key is missing (a positive number, the value at the centre)");
  c.background = positive(s, "background");
  c.peak = positive(s, "peak");
  c.width = positive(s, "width");
  for (int d = 0; d < grid.dim; ++d) c.center[d] = 0.5 * grid.length[d];
  if (s.has("center")) {
    const std::vector<double> center = s.get_double_list("center", "a list of finite numbers (physical coordinates)");
    if (static_cast<int>(center.size()) != grid.dim)
      s.fail("center", fmt::format("expected a list of {} numbers, one per dimension of grid.n", grid.dim));
    for (int d = 0; d < grid.dim; ++d) c.center[d] = center[d];
  } else {
    s.node("center");
  }
  s.finish();
}

void read_hdf5(YamlSection& s, const GlobalGrid& grid, CoefficientInput& c) {
  if (!s.has("file")) s.fail("file", "required key is missing (the HDF5 file's path)");
  if (!s.has("dataset")) s.fail("dataset", "required key is missing (the dataset's path in the file)");
  c.file = *s.get_optional_string("file", "a file path");
  c.dataset = *s.get_optional_string("dataset", "a dataset path");
  s.finish();
  const CoefficientFileScan scan = coefficient_file_scan();
  if (scan == nullptr) s.fail("file", "this program cannot read HDF5 coefficients (cartex::io did not install its reader)");
  std::array<double, 2> range{};
  try {
    range = scan(c.file, c.dataset, grid);
  } catch (const Error& e) {
    const std::string what = e.what();
    s.fail(what.find("no such file") != std::string::npos || what.find("HDF5 file") != std::string::npos ? "file" : "dataset", what);
  }
  if (!(range[0] > 0) || !std::isfinite(range[1]))
    s.fail("dataset", fmt::format("{}: dataset {} holds {} (expected positive, finite values everywhere)", c.file, c.dataset,
                                  !(range[0] > 0) ? fmt::format("the value {}", range[0]) : fmt::format("the value {}", range[1])));
  c.value = range[1];  // the largest value: the time-step limit's
}

}  // namespace

CoefficientInput read_coefficient_input(YamlSection& parent, const std::string& key, const GlobalGrid& grid,
                                        const std::string& missing) {
  CoefficientInput c;
  const YAML::Node n = parent.node(key);
  if (n && n.IsMap()) {
    YamlSection s = parent.section(key);
    const char* forms[3] = {"layers", "gaussian", "hdf5"};
    int given = 0;
    for (const char* f : forms) given += s.has(f) ? 1 : 0;
    if (given != 1) parent.fail(key, fmt::format("expected {}{}", kForms, given > 1 ? " (several given)" : ""));
    if (s.has("layers")) {
      c.form = CoefficientInput::Form::kLayers;
      YamlSection layers = s.section("layers");
      read_layers(layers, grid, c);
    } else if (s.has("gaussian")) {
      c.form = CoefficientInput::Form::kGaussian;
      YamlSection gaussian = s.section("gaussian");
      read_gaussian(gaussian, grid, c);
    } else {
      c.form = CoefficientInput::Form::kHdf5;
      YamlSection hdf5 = s.section("hdf5");
      read_hdf5(hdf5, grid, c);
    }
    s.finish();
    return c;
  }
  auto v = parent.get_optional_double(key, kForms);
  if (!v) parent.fail(key, missing);
  if (!(*v > 0)) parent.fail(key, fmt::format("expected a positive number, got {}", *v));
  c.value = *v;
  return c;
}

std::vector<InputKey> coefficient_input_keys(const std::string& path) {
  using D = KeyDefault;
  const std::string layers = fmt::format("`{}` is `{{layers: ...}}`", path),
                    gaussian = fmt::format("`{}` is `{{gaussian: ...}}`", path),
                    hdf5 = fmt::format("`{}` is `{{hdf5: ...}}`", path);
  return {
      {path + ".layers.axis", "`x`, `y` or `z`", D::value("x"), "the axis the layers stack along", layers},
      {path + ".layers.bounds", "list of increasing numbers", D::required(), "positions (physical units) between the layers",
       layers},
      {path + ".layers.values", "list of positive numbers", D::required(),
       "the value of each layer, lowest position first, one more than `bounds`; a cell at position p along `axis` takes "
       "the value of the first layer with p < its upper bound",
       layers},
      {path + ".gaussian.background", "positive number", D::value("1.0"), "the value far from the centre", gaussian},
      {path + ".gaussian.peak", "positive number", D::required(),
       "the value at the centre; value = background + (peak − background)·exp(−r²/(2·width²))", gaussian},
      {path + ".gaussian.center", "list of numbers", D::derived("the domain centre"),
       "the bump's centre (physical coordinates, one per dimension; no periodic images)", gaussian},
      {path + ".gaussian.width", "positive number", D::value("0.1"), "the bump's standard deviation (physical units)",
       gaussian},
      {path + ".hdf5.file", "string", D::required(), "the HDF5 file holding the field (relative to the working directory)",
       hdf5},
      {path + ".hdf5.dataset", "string", D::required(),
       "the dataset, floating point, of the grid's shape `(nz, ny, nx)` as in cartex's field files (`(ny, nx)` also in "
       "2D), positive everywhere",
       hdf5},
  };
}

bool takes_field_coefficient(const Stencil& stencil) {
  return stencil.name == "5pt" || stencil.name == "7pt" || stencil.name == star_stencil_name(2);
}

double coefficient_max(const CoefficientInput& c) {
  switch (c.form) {
    case CoefficientInput::Form::kNumber: return c.value;
    case CoefficientInput::Form::kLayers: return *std::max_element(c.values.begin(), c.values.end());
    case CoefficientInput::Form::kGaussian: return std::max(c.background, c.peak);
    case CoefficientInput::Form::kHdf5: return c.value;
  }
  return c.value;
}

}  // namespace cartex::core::detail
