#pragma once
// A restart of heat with a field alpha continues the same physics: the input's physics.alpha is the
// one the run uses, and it must equal the alpha the checkpoint stores (written by every checkpoint of
// such a run), bit for bit, on every cell; a checkpoint with alpha and an input without a field
// alpha (or the reverse) is refused too. Decided this way rather than taking the stored field: a
// restart never changes the medium silently, and the resolved input stays the run's full description.
#include <string>
#include <vector>

#include "driver.hpp"

namespace cartex::app {

// The fields load_restart reads: the equation's, plus alpha with a field alpha.
std::vector<std::string> restart_field_names(const Setup& s);

// Checks s.restart's alpha against s.alpha (see the header comment), on this rank's block; throws
// InputError "PATH: physics.alpha ..." (load_restart adds "--restart ").
void check_restart_alpha(const Setup& s);

}  // namespace cartex::app
