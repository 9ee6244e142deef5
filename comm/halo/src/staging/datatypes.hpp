#pragma once
// Internal: MPI derived datatypes for halo blocks (lists of view cells), owned with RAII (OwnedType).
#include <mpi.h>

#include <vector>

#include "cartex/halo/cell_list.hpp"
#include "owned_handle.hpp"

namespace cartex::halo {

// The cells (linear indices of doubles, in order) as an hindexed type of runs, relative to the view's
// first element, followed by `pad` doubles at byte displacement `pad_displ` (also relative to the
// view's first element; it may lie in another allocation). MPI_DATATYPE_NULL if both are empty.
OwnedType cells_type(const CellList& cells, long pad = 0, MPI_Aint pad_displ = 0);

}  // namespace cartex::halo
