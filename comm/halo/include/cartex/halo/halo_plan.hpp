#pragma once
// A persistent halo-exchange plan: built once from the halo pattern, called every exchange.
//
//   geometry = HaloGeometry(decomp, stencil, k);            // where halo cells come from
//   pattern  = make_halo_pattern(decomp, rank, stencil, k); // this rank's blocks (a value)
//   plan     = make_halo_plan("cart_combining", geometry, pattern, comm);
//   loop: plan->start(u); ...work that does not read the halo...; plan->finish(u);
//
// Backends (comm.backend), see docs/backends.md:
//   p2p                    Kokkos pack, MPI_Isend/MPI_Irecv per neighbor, Kokkos unpack
//   mpi_neighbor_alltoallw MPI dist-graph communicator + MPI_Ineighbor_alltoallw, derived datatypes
//   cart_direct            CX_Cart_alltoallw plan, direct schedule (ICPP'19 Listing 4), zero-copy
//   cart_combining         CX_Cart_alltoallw plan, message combining (ICPP'19 Algorithm 1), zero-copy
//   cart_combining_packed  the combining schedule on contiguous buffers packed by Kokkos
//   cart_forwarding        dimension-ordered exchange that forwards received halo cells
//   graph_combining        general dist graph + comm/graph message combining (paper 002), packed
//   auto                   times the others at creation and keeps the fastest
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/halo/halo_geometry.hpp"
#include "cartex/halo/halo_pattern.hpp"

namespace cartex {

// What one exchange costs this rank: messages it sends, bytes it sends (counting a block once per
// hop it travels), and communication rounds (steps that must follow each other or, for the
// Cartesian schedules, the rounds C of ICPP'19).
struct HaloStats {
  long messages = 0;
  long bytes = 0;
  int rounds = 0;
};

// Exchanges the halo of fields with one fixed layout.
class HaloPlan {
 public:
  virtual ~HaloPlan() = default;
  // Begins the exchange of `f`'s halo (reads its cells next to the faces).
  virtual void start(Field& f) = 0;
  // Completes the exchange: every halo cell of the pattern holds its owner's value.
  virtual void finish(Field& f) = 0;
  // start + finish.
  void exchange(Field& f) {
    start(f);
    finish(f);
  }
  // Messages, bytes and rounds of one exchange on this rank.
  virtual HaloStats stats() const = 0;
  // The backend name ("p2p", ...; auto reports the backend it chose).
  virtual std::string backend() const = 0;
  // One line on how the plan was chosen or built (auto: the timings behind its choice).
  virtual std::string note() const { return {}; }
};

// Backend names accepted by make_halo_plan, in the order auto tries them.
std::vector<std::string> halo_backends();

// True if `backend` hands the field's memory to MPI directly (needs host-accessible memory).
bool backend_is_zero_copy(const std::string& backend);

// The stats a plan of `backend` will report, computed without building it (no communication). The
// combining backends pad blocks to `slots` (uniform sizes per block index) when given.
// graph_combining has none (its pattern is built collectively): std::invalid_argument.
HaloStats predict_halo_stats(const std::string& backend, const HaloGeometry& geo, const HaloPattern& pattern,
                             const std::vector<long>* slots = nullptr);

// Builds the plan (collective over comm); throws std::invalid_argument for an unknown backend or a
// zero-copy backend when the default memory space is not host-accessible.
std::unique_ptr<HaloPlan> make_halo_plan(const std::string& backend, const HaloGeometry& geo, const HaloPattern& pattern,
                                         MPI_Comm comm);

}  // namespace cartex
