#pragma once
// Internal: the start/finish lifecycle every plan of comm/halo shares.

namespace cartex::halo {

// The lifecycle of one exchange, shared by every plan; refuses a second start before finish and a
// finish without start (cartex::core::Error):
//
//   state \ event  start          complete()     finish
//   idle            -> in flight   nothing        error
//   in flight       error          -> complete    -> idle
//   complete        error          nothing        -> idle
class StartFinish {
 public:
  void start();
  // The exchange's last message has arrived and been unpacked.
  void complete() {
    if (state_ == State::in_flight) state_ = State::complete;
  }
  void finish();
  // Started and not finished.
  bool active() const { return state_ != State::idle; }
  // Nothing in flight (idle, or complete before finish).
  bool done() const { return state_ != State::in_flight; }

 private:
  enum class State { idle, in_flight, complete };
  State state_ = State::idle;
};

}  // namespace cartex::halo
