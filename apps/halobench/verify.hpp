// The correctness gate in front of every timing: a backend whose exchange is wrong posts no time.
#pragma once

#include <mpi.h>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/halo/pattern.hpp"
#include "cartex/halo/plan.hpp"

namespace halobench {

// Fills `f` with the global-index encoding (interior) and -1 (halo), exchanges twice with `plan`
// (a persistent plan must give the same result when reused), and returns the number of wrong cells
// over all ranks: exact-halo cells without their owner's value, or interior cells that changed.
// Collective over comm.
long count_wrong_cells(cartex::halo::HaloPlan& plan, cartex::core::Field& f, const cartex::halo::HaloPattern& pattern,
                       const cartex::core::GlobalGrid& grid, MPI_Comm comm);

// The same for a plan of several fields (--fields): field q holds the encoding plus q times the grid's cells,
// so a field receiving another's cells shows up too; the wrong cells of every field, over all ranks.
long count_wrong_cells(cartex::halo::HaloPlan& plan, const std::vector<cartex::core::Field*>& fields,
                       const cartex::halo::HaloPattern& pattern, const cartex::core::GlobalGrid& grid, MPI_Comm comm);

}  // namespace halobench
