#include "staging/datatypes.hpp"

#include "mpi_check.hpp"

namespace cartex::halo {

OwnedType cells_type(const CellList& cells, long pad, MPI_Aint pad_displ) {
  if (cells.empty() && pad == 0) return OwnedType();
  std::vector<int> lengths;
  std::vector<MPI_Aint> displs;
  cells.for_each_row([&](long first, long length) {
    lengths.push_back(static_cast<int>(length));
    displs.push_back(static_cast<MPI_Aint>(first) * static_cast<MPI_Aint>(sizeof(double)));
  });
  if (pad > 0) {
    lengths.push_back(static_cast<int>(pad));
    displs.push_back(pad_displ);
  }
  MPI_Datatype t;
  check_mpi(MPI_Type_create_hindexed(static_cast<int>(lengths.size()), lengths.data(), displs.data(), MPI_DOUBLE, &t),
            "MPI_Type_create_hindexed");
  OwnedType owned(t);
  check_mpi(MPI_Type_commit(&t), "MPI_Type_commit");
  return owned;
}

}  // namespace cartex::halo
