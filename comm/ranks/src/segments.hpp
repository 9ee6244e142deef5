// The P segments of a ring allreduce buffer (NESUS'14 section III): segment s has count/P
// elements, one more for s < count mod P, and starts after the segments before it.
#pragma once

#include <algorithm>

namespace cartex::ranks::detail {

// Segment geometry of `count` elements over `procs` segments.
struct Segments {
  int count;
  int procs;
  // Elements in segment s.
  int size(int s) const { return count / procs + (s < count % procs ? 1 : 0); }
  // First element of segment s.
  int start(int s) const { return s * (count / procs) + std::min(s, count % procs); }
  // s mod P for any integer s.
  int wrap(int s) const { return ((s % procs) + procs) % procs; }
};

}  // namespace cartex::ranks::detail
