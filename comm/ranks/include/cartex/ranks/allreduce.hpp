// Allreduce by the Ring algorithm and by Ring* (Ring on renamed ranks), NESUS'14 sections III
// and III.2, with results equal to MPI_Allreduce for commutative operations.
//
//   Ring on virtual ranks v = 0..P-1 (buffer cut into P segments, segment s of
//   count/P elements, the first count mod P segments one element longer):
//
//   computation phase, stages k = 0..P-2      distribution phase, stages k = 0..P-2
//     v sends segment (v-k) mod P to v+1        v sends segment (v+1-k) mod P to v+1
//     v receives segment (v-k-1) from v-1       v receives segment (v-k) from v-1
//     and reduces it into its own               and stores it
//
// Deterministic floating-point order: segment s of the result is the left fold
//   ((x[s] op x[s+1]) op x[s+2]) ... op x[s-1]     (virtual ranks, indices mod P)
// of the processes' inputs, element by element, the same on every process and for every run
// with the same P, layout and count. Integer and max/min results are bitwise those of
// MPI_Allreduce; a floating-point sum differs from MPI_Allreduce only by rounding.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/ranks/layout.hpp"
#include "cartex/ranks/renaming.hpp"
#include "cartex/ranks/traffic.hpp"

namespace cartex::ranks {

// The allreduce implementation (heat3d's comm.allreduce: ring | ring_renamed | mpi).
enum class Algorithm { mpi, ring, ring_renamed };

// "mpi", "ring" or "ring_renamed".
std::string to_string(Algorithm algorithm);
// Inverse of to_string; throws std::invalid_argument otherwise.
Algorithm parse_algorithm(const std::string& text);
// Every algorithm's name, in enum order (the names comm.allreduce accepts).
std::vector<std::string> algorithm_names();

// MPI_Allreduce's arguments (sendbuf may be MPI_IN_PLACE) plus the algorithm. `op` must be
// commutative; datatypes must be contiguous (size == extent). ring_renamed uses the layout of
// layout_from_env(comm), detected once per communicator and cached on it. Collective.
void allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               Algorithm algorithm);

// The Ring algorithm on the virtual ranks of `renaming` (identity: Ring, sequential_for: Ring*).
void ring_allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    const Renaming& renaming);

// Messages and bytes of one ring allreduce of `count` elements of `element_bytes` bytes on
// `layout` with `renaming` (2(P-1) stages, one message per process per stage).
Traffic ring_traffic(const NodeLayout& layout, const Renaming& renaming, int count, int element_bytes);

}  // namespace cartex::ranks
