#pragma once
// Internal: MPI derived datatypes for halo blocks (lists of view cells), owned with RAII.
#include <mpi.h>

#include <utility>
#include <vector>

namespace cartex::halo {

// Owns one committed MPI datatype (or MPI_DATATYPE_NULL) and frees it.
class OwnedType {
 public:
  OwnedType() = default;
  explicit OwnedType(MPI_Datatype t) : t_(t) {}
  ~OwnedType() {
    if (t_ != MPI_DATATYPE_NULL) MPI_Type_free(&t_);
  }
  OwnedType(OwnedType&& o) noexcept : t_(std::exchange(o.t_, MPI_DATATYPE_NULL)) {}
  OwnedType& operator=(OwnedType&& o) noexcept {
    std::swap(t_, o.t_);
    return *this;
  }
  OwnedType(const OwnedType&) = delete;
  OwnedType& operator=(const OwnedType&) = delete;
  MPI_Datatype get() const { return t_; }

 private:
  MPI_Datatype t_ = MPI_DATATYPE_NULL;
};

// The cells (linear indices of doubles, in order) as an hindexed type of runs, relative to the view's
// first element, followed by `pad` doubles at byte displacement `pad_displ` (also relative to the
// view's first element; it may lie in another allocation). MPI_DATATYPE_NULL if both are empty.
OwnedType cells_type(const std::vector<long>& cells, long pad = 0, MPI_Aint pad_displ = 0);

}  // namespace cartex::halo
