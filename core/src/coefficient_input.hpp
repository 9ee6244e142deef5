#pragma once
// Internal: reading a coefficient that may vary in space (heat's physics.alpha, docs/input.md) from
// its YAML section, every problem located at its key. The forms:
//
//   alpha: 0.5                                            a number (the scalar path, today's bits)
//   alpha: {layers: {axis: x, bounds: [0.5], values: [1.0, 4.0]}}
//   alpha: {gaussian: {background: 1.0, peak: 3.0, center: [0.5, 0.5, 0.5], width: 0.1}}
//   alpha: {hdf5: {file: alpha.h5, dataset: alpha}}       shape (nz, ny, nx) of the grid
#include <array>
#include <string>
#include <vector>

#include "cartex/core/coefficient.hpp"
#include "cartex/core/input_keys.hpp"
#include "cartex/core/stencil.hpp"
#include "yaml_reader.hpp"

namespace cartex::core::detail {

// The coefficient at `key` of `parent` (a positive number or a mapping of one form) for `grid`;
// throws InputError located at the offending key. An hdf5 form is scanned here (coefficient.hpp's
// file scanner): a missing file, wrong shape or type and a non-positive value are input errors.
// `missing`: the error when the key is absent.
CoefficientInput read_coefficient_input(YamlSection& parent, const std::string& key, const GlobalGrid& grid,
                                        const std::string& missing);

// The table rows of a coefficient key's field forms (`path`.layers.axis, ...), for input_keys.hpp.
std::vector<InputKey> coefficient_input_keys(const std::string& path);

// Whether a field coefficient works with `stencil`: the second-order star (5pt, 7pt, star2), the one
// the flux form is defined on (kernels/flux_diffusion.hpp).
bool takes_field_coefficient(const Stencil& stencil);

// The largest value the coefficient takes anywhere (what the time-step limit needs).
double coefficient_max(const CoefficientInput& c);

}  // namespace cartex::core::detail
