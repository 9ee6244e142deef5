#pragma once
// Internal: the MPI handles comm/halo creates (communicators, datatypes) are owned and freed once
// (a failed free is reported, not thrown: it runs in destructors).
#include <mpi.h>

#include <utility>

#include "mpi_check.hpp"

namespace cartex::halo {

// Owns one MPI handle (a communicator, a datatype) and frees it with Traits::free unless it is
// Traits::null(); the handle types of comm/halo are below.
template <class Traits>
class Owned {
 public:
  using Handle = typename Traits::Handle;
  Owned() = default;
  explicit Owned(Handle h) : h_(h) {}
  ~Owned() {
    if (h_ != Traits::null()) Traits::free(&h_);  // no check: destructors do not throw
  }
  Owned(Owned&& o) noexcept : h_(std::exchange(o.h_, Traits::null())) {}
  Owned& operator=(Owned&& o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Handle get() const { return h_; }

 private:
  Handle h_ = Traits::null();
};

// A communicator (a duplicate or a new topology), freed by MPI_Comm_free.
struct CommTraits {
  using Handle = MPI_Comm;
  static MPI_Comm null() { return MPI_COMM_NULL; }
  static void free(MPI_Comm* c) { check_mpi_nothrow(MPI_Comm_free(c), "MPI_Comm_free"); }
};
using OwnedComm = Owned<CommTraits>;

// A committed datatype, freed by MPI_Type_free.
struct TypeTraits {
  using Handle = MPI_Datatype;
  static MPI_Datatype null() { return MPI_DATATYPE_NULL; }
  static void free(MPI_Datatype* t) { check_mpi_nothrow(MPI_Type_free(t), "MPI_Type_free"); }
};
using OwnedType = Owned<TypeTraits>;

}  // namespace cartex::halo
