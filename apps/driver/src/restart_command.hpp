#pragma once
// The shell command that continues a stopped run from its checkpoint (printed in the summary).
#include <string>

#include "driver.hpp"

namespace cartex::app {

// The command that continues this run from `checkpoint`: the same input files and overrides (an input
// that itself came from a checkpoint is not named: the new checkpoint embeds the resolved input).
std::string restart_command(const Setup& s, const std::string& checkpoint);

}  // namespace cartex::app
