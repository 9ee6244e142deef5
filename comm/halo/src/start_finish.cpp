#include "start_finish.hpp"

#include "cartex/core/error.hpp"

namespace cartex::halo {

void StartFinish::start() {
  core::require(state_ == State::idle, "halo exchange started twice without finish");
  state_ = State::in_flight;
}

void StartFinish::finish() {
  core::require(state_ != State::idle, "halo exchange finished without start");
  state_ = State::idle;
}

}  // namespace cartex::halo
