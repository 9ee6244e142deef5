#pragma once
// Internal: the progress of a packed exchange that one test can complete (p2p, p2p_persistent and
// each phase of cart_forwarding: their requests; cart_combining_packed: comm/cart's plan): it is
// tested without blocking, and the receive buffer is unpacked into the started field as soon as the
// test says complete.
//
//   state \ event  start(f)      progress(): all requests complete   finish
//   idle           -> in flight  nothing                             error
//   in flight      error         unpack -> complete                  wait, unpack -> idle
//   complete       error         nothing                             -> idle
#include <mpi.h>

#include <vector>

#include "cartex/core/field.hpp"
#include "cartex/core/phase_profile.hpp"
#include "cartex/halo/plan.hpp"
#include "mpi_check.hpp"
#include "staging/staged_buffers.hpp"
#include "start_finish.hpp"

namespace cartex::halo {

// The lifecycle of one single-phase packed exchange (the table above).
class SinglePhase {
 public:
  // The exchange of the fields f has been posted (its receives unpack into them).
  void start(const FieldSet& f) {
    state_.start();
    fields_ = f;
  }
  // Runs test() (non-blocking, true when the messages are complete); when it says complete,
  // unpacks the receives. Harmless when idle or complete.
  template <class Test>
  void progress(Test&& test, StagedBuffers& buffers) {
    if (state_.done() || !test()) return;
    buffers.unpack(fields_);
    state_.complete();
  }
  // Runs wait() (blocking) when still in flight, unpacks, and ends the exchange. The wait phase is
  // entered also when progress completed the exchange (once per finish, so its call count is fixed).
  template <class Wait>
  void finish(Wait&& wait, StagedBuffers& buffers) {
    const bool in_flight = !state_.done();
    {
      core::PhaseScope waiting(core::Phase::kHaloWait);
      if (in_flight) wait();
    }
    if (in_flight) buffers.unpack(fields_);
    state_.finish();
  }
  // The same with MPI requests: MPI_Testall / MPI_Waitall of all of them.
  void progress(std::vector<MPI_Request>& requests, StagedBuffers& buffers) {
    progress([&] { return test_all(requests, requests.size()); }, buffers);
  }
  void finish(std::vector<MPI_Request>& requests, StagedBuffers& buffers) {
    finish([&] { wait_all(requests, requests.size()); }, buffers);
  }
  // Nothing in flight.
  bool done() const { return state_.done(); }
  bool active() const { return state_.active(); }

 private:
  StartFinish state_;
  FieldSet fields_{};
};

}  // namespace cartex::halo
