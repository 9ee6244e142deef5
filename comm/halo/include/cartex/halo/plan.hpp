#pragma once
// A persistent halo-exchange plan: built once from the halo pattern, called every exchange.
//
//   geometry = HaloGeometry(decomp, stencil, k);        // where halo cells come from (all ranks)
//   pattern  = make_halo_pattern(geometry, rank);        // this rank's blocks (a value)
//   plan     = make_halo_plan("cart_combining", {pattern, comm, &geometry});   // backends.hpp
//   loop: plan->start(u);
//         for each chunk of work that does not read the halo: work; plan->progress();
//         plan->finish(u);
//
// progress() never blocks: it tests the messages in flight and, when a phase is complete, unpacks
// it and posts the next one, so a multi-phase schedule advances while the caller computes (MPI
// libraries such as Open MPI move large messages only inside MPI calls). done() says that the
// exchange is complete before finish; finish() is progress until done, blocking.
//
// Where the work happens (the "overlaps" column of backends()):
//   start posts, progress completes  p2p, p2p_persistent, mpi_neighbor_alltoallw,
//                                    mpi_neighbor_alltoallw_init (one phase);
//                                    cart_forwarding (one phase per dimension; a phase packs
//                                    what the previous one unpacked); cart_direct,
//                                    cart_combining, cart_combining_packed (comm/cart's plan
//                                    run phase by phase: CX_Cart_plan_start / _test)
//   start does it all (blocking)     graph_combining (comm/graph's plan has no non-blocking run)
//   auto                             as the backend it chose
// p2p and p2p_persistent copy the blocks a rank sends itself inside start (field to field, no MPI):
// self_complete_at_start(); and they pack every block they send inside start, so the caller may
// overwrite the block's cells while the messages are in flight: block_copied_at_start(). The others
// read the field after start (MPI datatypes over the field, later phases packed in progress).
// Every plan refuses a second start before finish, and finish without start (cartex::core::Error);
// progress() and done() on an idle or complete plan change nothing.
#include <string>

#include "cartex/core/field.hpp"

namespace cartex::halo {

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
  virtual void start(core::Field& f) = 0;
  // Advances the started exchange without blocking (see above); harmless when idle or complete.
  virtual void progress() {}
  // True when nothing is in flight: the started exchange is complete (finish only ends it), or
  // none was started.
  virtual bool done() const = 0;
  // Completes the exchange (blocking): every halo cell of the pattern holds its owner's value.
  virtual void finish(core::Field& f) = 0;
  // True if the halo cells this rank sends itself (periodic dimensions of one process) hold their
  // values when start() returns: the caller may then sweep HaloPattern::remote_inner while the rest
  // is in flight.
  virtual bool self_complete_at_start() const { return false; }
  // True if start() has copied every cell this rank sends when it returns: until finish the exchange
  // writes halo cells only and reads none of the block, so the caller may write the block's cells
  // (a blocked pass of several steps while the exchange is in flight).
  virtual bool block_copied_at_start() const { return false; }
  // start + finish.
  void exchange(core::Field& f) {
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

}  // namespace cartex::halo
