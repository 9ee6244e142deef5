#pragma once
// A persistent halo-exchange plan: built once from the halo pattern, called every exchange.
//
//   geometry = HaloGeometry(decomp, stencil, k);        // where halo cells come from (all ranks)
//   pattern  = make_halo_pattern(geometry, rank);        // this rank's blocks (a value)
//   plan     = make_halo_plan("cart_combining", {pattern, comm, &geometry});   // backends.hpp
//   loop: plan->start(u); ...work that does not read the halo...; plan->finish(u);
//
// Where the work happens (the "overlaps" column of backends()):
//   start posts, finish waits        p2p, p2p_persistent, mpi_neighbor_alltoallw: work between
//                                    start and finish overlaps the whole exchange
//   start does phase 1, finish rest  cart_forwarding: only the first dimension's phase overlaps
//   start does it all (blocking)     cart_direct, cart_combining (finish does nothing),
//                                    cart_combining_packed, graph_combining (finish unpacks)
//   auto                             as the backend it chose
// Every plan refuses a second start before finish, and finish without start (cartex::core::Error).
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
  // Completes the exchange: every halo cell of the pattern holds its owner's value.
  virtual void finish(core::Field& f) = 0;
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
