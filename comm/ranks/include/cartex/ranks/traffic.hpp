// Message and byte counts of one collective call, split by whether they cross a node boundary.
#pragma once

#include <cstdint>

namespace cartex::ranks {

// Totals over all processes of one call.
struct Traffic {
  std::int64_t messages = 0;
  std::int64_t bytes = 0;
  std::int64_t inter_node_messages = 0;
  std::int64_t inter_node_bytes = 0;
};

}  // namespace cartex::ranks
