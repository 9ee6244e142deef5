#pragma once
// A persistent halo-exchange plan: built once from the regions, called every step.
//
//   plan = make_halo_plan("p2p", regions, comm);   // allocates buffers, fixes messages
//   loop: plan->start(u); ...interior work...; plan->finish(u);   (or plan->exchange(u))
#include <mpi.h>

#include <memory>
#include <string>

#include "cartex/core/field.hpp"
#include "cartex/halo/halo_regions.hpp"

namespace cartex {

// What one exchange costs this rank: messages and bytes it sends (self-messages included).
struct HaloStats {
  long messages = 0;
  long bytes = 0;
};

// Exchanges the halo of fields with one fixed layout.
class HaloPlan {
 public:
  virtual ~HaloPlan() = default;
  // Begins the exchange of `f`'s halo (reads its interior boundary cells).
  virtual void start(Field& f) = 0;
  // Completes the exchange begun by start(): every needed halo cell holds its owner's value.
  virtual void finish(Field& f) = 0;
  // start + finish.
  void exchange(Field& f) {
    start(f);
    finish(f);
  }
  // Messages and bytes this rank sends per exchange.
  virtual HaloStats stats() const = 0;
  // The backend name ("p2p", ...).
  virtual std::string backend() const = 0;
};

// Builds the plan for `backend` (a name from known_backends()); throws std::invalid_argument for an
// unknown name.
std::unique_ptr<HaloPlan> make_halo_plan(const std::string& backend, const HaloRegions& regions, MPI_Comm comm);

}  // namespace cartex
