#pragma once
// The shape of a deep-halo cycle (Stepper): what its first step does around the halo exchange and
// how steps 2..k follow, named once from the stepper's settings and recomputed only when they change
// (at the end of a cycle: auto switching tiles or overlap).
//
//   shape             settings                      step 1 of a cycle                     steps 2..k
//   exchange_sweep    k = 1, no overlap, no tiles   exchange u | refresh u | interior     -
//                                                   sweep | refresh next
//   exchange_regions  k > 1, no overlap, no tiles   exchange u | refresh u | region 1 |   region j | refresh next
//                                                   refresh next
//   exchange_blocked  tiles, no overlap             exchange u | refresh u | one blocked  (inside the pass, up to
//                                                   pass from step 1                      the next observed step)
//   overlap_regions   overlap, no tiles             start | inner chunks, progress |      region j | refresh next
//                                                   finish | refresh u | rim | refresh next
//   overlap_blocked   overlap, tiles, no split      overlapped step 1 as above, then      (inside the pass)
//                                                   one blocked pass from step 2
//   overlap_pass      overlap, tiles, k > 1, the    start | inner steps 1..n as one pass, (inside the pass)
//                     plan copies its block at      progress between tiles | finish |
//                     start, no refreshed walls     rim 1 | ... | rim n (halo::split_cycle)
//
// In every shape a blocked pass ends at the first step the loop reads (observe()) or the run's last
// step; overlap_blocked and overlap_pass then run step 1 alone as overlap_regions does. Leapfrog with
// k > 1 (the previous level read on the ghost cells step 1 updates) first exchanges the previous level,
// blocking, in every shape. Refreshed walls (Neumann, Robin, Dirichlet exact) rule out overlap_pass: its
// rims run after the pass, when the walls of the earlier steps would be due already.
namespace cartex::app {

enum class CycleKind { kExchangeSweep, kExchangeRegions, kExchangeBlocked, kOverlapRegions, kOverlapBlocked, kOverlapPass };

// What decides the shape.
struct CycleSettings {
  int k = 1;                           // steps per exchange
  bool overlap = false;                // comm.overlap in effect
  bool tiles = false;                  // a temporal-blocking tiling (tile_y > 0)
  bool block_copied_at_start = false;  // the plan copies every cell it sends inside start (HaloPlan)
  bool refreshed_walls = false;        // some wall's ghost cells are refreshed after every step
  bool previous_level = false;         // the equation keeps a previous time level (leapfrog)
};

struct CycleShape {
  CycleKind kind = CycleKind::kExchangeSweep;
  bool exchanges_previous_level = false;  // step 1 first exchanges the previous level (leapfrog, k > 1)

  // Steps 2..k run inside a blocked pass.
  bool blocked() const {
    return kind == CycleKind::kExchangeBlocked || kind == CycleKind::kOverlapBlocked || kind == CycleKind::kOverlapPass;
  }
  // Step 1 overlaps the exchange.
  bool overlapped() const {
    return kind == CycleKind::kOverlapRegions || kind == CycleKind::kOverlapBlocked || kind == CycleKind::kOverlapPass;
  }
};

// The shape of the table above for `s`.
CycleShape cycle_shape(const CycleSettings& s);

// "exchange_sweep", ... (the table's names), for --dry-run, the summary and tests.
const char* cycle_kind_name(CycleKind kind);

}  // namespace cartex::app
