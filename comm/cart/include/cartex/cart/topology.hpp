// Topology: the process mesh/torus of a Cartesian neighborhood and the caller's place in it.
// Rank <-> coordinate translation is row-major as in MPI Cartesian communicators, so it is computed
// locally without MPI calls.
#pragma once

#include <vector>

namespace cartex::cart {

// A d-dimensional mesh/torus (dims, periods) and the coordinates of the calling process.
class Topology {
 public:
  Topology(std::vector<int> dims, std::vector<int> periods, std::vector<int> coords);

  // Number of dimensions d.
  int ndims() const { return static_cast<int>(dims_.size()); }
  // Process count p = product of dims.
  int size() const { return size_; }
  // Dimension sizes.
  const std::vector<int>& dims() const { return dims_; }
  // Periodicity per dimension (non-zero = torus).
  const std::vector<int>& periods() const { return periods_; }
  // Coordinates of the calling process.
  const std::vector<int>& coords() const { return coords_; }
  // True when some dimension is non-periodic, so neighbors may be MPI_PROC_NULL.
  bool has_mesh_dims() const { return has_mesh_dims_; }

  // Rank of coords + sign*rel (wrapped in periodic dims), or MPI_PROC_NULL outside the mesh.
  int shifted_rank(const int* rel, int sign) const;
  // True when coords + sign*a + sign2*b lies inside the mesh (periodic dims always do).
  bool inside(const int* a, int sign, const int* b, int sign2) const;
  // Absolute coordinates of a rank.
  std::vector<int> coords_of(int rank) const;

 private:
  std::vector<int> dims_;
  std::vector<int> periods_;
  std::vector<int> coords_;
  int size_ = 1;
  bool has_mesh_dims_ = false;
};

}  // namespace cartex::cart
