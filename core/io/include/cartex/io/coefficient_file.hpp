#pragma once
// A varying coefficient read from an HDF5 dataset of the grid's shape (physics.alpha: {hdf5: {file,
// dataset}}, docs/input.md). Each rank reads its own block plus the halo cells of its layout (the
// source cells of core/coefficient.hpp: periodic wrap, walls clamped), independently, so no
// exchange is needed afterwards and a ghost holds its owner's bits.
#include <array>
#include <string>
#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"

namespace cartex::io {

// The value of every view cell of `layout` (view order: k, then j, then i fastest) from dataset
// `dataset` of `file`: floating point, shape (nz, ny, nx) of `grid` (a 2D grid also takes (ny, nx)).
// Throws cartex::core::Error naming the file and what is wrong (missing file or dataset, shape, type);
// the caller locates it in the input.
std::vector<double> read_coefficient_file(const std::string& file, const std::string& dataset, const core::GlobalGrid& grid,
                                          const core::FieldLayout& layout);

// The smallest (NaN if any value is NaN) and largest value of the whole dataset, after the same checks:
// core::CoefficientFileScan, installed by the apps for the input's checks. Collective over
// MPI_COMM_WORLD when MPI is running (the loader runs on every rank): each rank reads every size-th
// z-plane, one plane in memory, so the file is read once in all; every rank returns the same range or
// throws the lowest failing rank's error. Without MPI it reads every plane itself.
std::array<double, 2> scan_coefficient_file(const std::string& file, const std::string& dataset, const core::GlobalGrid& grid);

}  // namespace cartex::io
