#pragma once
// Internal: the resolved configuration written back as YAML (Config::resolved_yaml, --dry-run,
// checkpoints), every default filled in, so that it loads again to the same Config.
#include <string>

#include "cartex/core/config.hpp"

namespace cartex::core::detail {

// `c` as an input: every key with its value, doubles in the fewest digits that read back to the same bits.
std::string emit_resolved(const Config& c);

}  // namespace cartex::core::detail
