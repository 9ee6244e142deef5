#pragma once
// A restart with a field coefficient (heat's physics.alpha given as a field) continues the same
// physics: the input's coefficient is the one the run uses, and it must equal the field the
// checkpoint stores under the key's name (written by every checkpoint of such a run), bit for bit,
// on every cell; a checkpoint with the field and an input giving a number (or the reverse) is refused
// too. Decided this way rather than taking the stored field: a restart never changes the medium
// silently, and the resolved input stays the run's full description.
#include <string>
#include <vector>

#include "driver.hpp"

namespace cartex::app {

// The fields load_restart reads: the equation's state (physics::state_names), then each field
// coefficient by its key.
std::vector<std::string> restart_field_names(const Setup& s);

// Checks s.restart's field coefficients against s.coefficients (see the header comment), on this
// rank's block; throws InputError "PATH: physics.KEY ..." (load_restart adds "--restart ").
void check_restart_coefficients(const Setup& s);

}  // namespace cartex::app
