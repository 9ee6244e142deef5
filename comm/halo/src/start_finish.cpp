#include "start_finish.hpp"

#include "cartex/core/error.hpp"

namespace cartex::halo {

void StartFinish::start() {
  // Not core::require: its message would be made (a std::string, allocated) on every exchange.
  if (state_ != State::idle) throw core::Error("halo exchange started twice without finish");
  state_ = State::in_flight;
}

void StartFinish::finish() {
  if (state_ == State::idle) throw core::Error("halo exchange finished without start");
  state_ = State::idle;
}

}  // namespace cartex::halo
