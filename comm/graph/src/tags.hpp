// Message tags on a pattern's private communicator. Pattern construction and every plan use the
// same communicator; distinct tags keep construction messages, size hand-shakes and the phases
// of one schedule apart even where two of them meet the same partner.
#pragma once

namespace cartex::graph::detail {

constexpr int kTagRows = 1;       // common-neighborhood rows (active in-neighbor lists)
constexpr int kTagChoice = 2;     // Algorithm 2 line 23: the chosen friend
constexpr int kTagState = 3;      // Algorithm 2 line 27: paired / terminal
constexpr int kTagNotify = 4;     // Algorithm 1 line 20: onloaded / offloaded / untouched
constexpr int kTagSizes = 5;      // plan creation: byte sizes of the friend's blocks (v variants)
constexpr int kTagStepBase = 16;  // schedule: phase A of step t is base+2t, phase B base+2t+1

}  // namespace cartex::graph::detail
