#pragma once
// Global diagnostics of a field's interior: reductions over all ranks of `comm`, through an
// Allreduce the caller chooses (heat3d: comm.allreduce), so kernels/ stays free of comm/.
#include <mpi.h>

#include <array>
#include <cstdint>
#include <functional>

#include "cartex/core/field.hpp"
#include "cartex/core/grid.hpp"
#include "cartex/core/state.hpp"

namespace cartex::kernels {

// MPI_Allreduce's signature; every rank of `comm` must pass the same function.
using Allreduce = std::function<void(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)>;

// Plain MPI_Allreduce.
void mpi_allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);

// Sum, minimum and maximum over the interior cells of all ranks.
struct FieldStats {
  double sum = 0, min = 0, max = 0;
};

// Global sum / min / max of the interior of `f` (collective over `comm`).
FieldStats field_stats(const core::Field& f, MPI_Comm comm, const Allreduce& allreduce = mpi_allreduce);

// Global max |f - amplitude * prod_d sin(k_d x_d)| over the interior (collective over `comm`).
double max_error_vs_sine(const core::Field& f, const core::GlobalGrid& grid, const std::array<double, 3>& k, double amplitude,
                         MPI_Comm comm, const Allreduce& allreduce = mpi_allreduce);

// A 64-bit checksum of the interior bits of the global field that does not depend on the
// decomposition: the wrapping sum over cells of mix(global index, bit pattern).
std::uint64_t field_checksum(const core::Field& f, const core::GlobalGrid& grid, MPI_Comm comm,
                             const Allreduce& allreduce = mpi_allreduce);

// The checksum of a state: its one field's field_checksum, or the fields' checksums combined in
// order (c = mix(c ^ c_q)), so a state of one field keeps the checksum of its field.
std::uint64_t state_checksum(const core::State& s, const core::GlobalGrid& grid, MPI_Comm comm,
                             const Allreduce& allreduce = mpi_allreduce);

}  // namespace cartex::kernels
