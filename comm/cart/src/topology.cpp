// Topology: row-major rank/coordinate arithmetic of MPI Cartesian communicators.
#include "cartex/cart/topology.hpp"

#include <mpi.h>

#include <utility>

namespace cartex::cart {

Topology::Topology(std::vector<int> dims, std::vector<int> periods, std::vector<int> coords)
    : dims_(std::move(dims)), periods_(std::move(periods)), coords_(std::move(coords)) {
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    size_ *= dims_[k];
    if (!periods_[k]) has_mesh_dims_ = true;
  }
}

std::vector<int> Topology::coords_of(int rank) const {
  std::vector<int> c(dims_.size());
  for (std::size_t k = dims_.size(); k-- > 0;) {
    c[k] = rank % dims_[k];
    rank /= dims_[k];
  }
  return c;
}

int Topology::shifted_rank(const int* rel, int sign) const {
  int rank = 0;
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    int c = coords_[k] + sign * rel[k];
    if (periods_[k]) {
      c %= dims_[k];
      if (c < 0) c += dims_[k];
    } else if (c < 0 || c >= dims_[k]) {
      return MPI_PROC_NULL;
    }
    rank = rank * dims_[k] + c;
  }
  return rank;
}

bool Topology::inside(const int* a, int sign, const int* b, int sign2) const {
  if (!has_mesh_dims_) return true;
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    if (periods_[k]) continue;
    int c = coords_[k] + sign * a[k];
    if (b != nullptr) c += sign2 * b[k];
    if (c < 0 || c >= dims_[k]) return false;
  }
  return true;
}

}  // namespace cartex::cart
