#include "staging/datatypes.hpp"

#include "mpi_check.hpp"

namespace cartex::halo {

OwnedType cells_type(const std::vector<long>& cells, long pad, MPI_Aint pad_displ) {
  if (cells.empty() && pad == 0) return OwnedType();
  std::vector<int> lengths;
  std::vector<MPI_Aint> displs;
  for (size_t c = 0; c < cells.size(); ++c) {
    if (c > 0 && cells[c] == cells[c - 1] + 1) {
      ++lengths.back();
    } else {
      lengths.push_back(1);
      displs.push_back(static_cast<MPI_Aint>(cells[c]) * static_cast<MPI_Aint>(sizeof(double)));
    }
  }
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
