#include "cycle_shape.hpp"

namespace cartex::app {

CycleShape cycle_shape(const CycleSettings& s) {
  CycleShape shape;
  shape.exchanges_previous_level = s.previous_level && s.k > 1;
  if (!s.overlap)
    shape.kind = s.tiles ? CycleKind::kExchangeBlocked : s.k == 1 ? CycleKind::kExchangeSweep : CycleKind::kExchangeRegions;
  else if (!s.tiles)
    shape.kind = CycleKind::kOverlapRegions;
  else if (s.k > 1 && s.block_copied_at_start && !s.refreshed_walls)
    shape.kind = CycleKind::kOverlapPass;
  else
    shape.kind = CycleKind::kOverlapBlocked;
  return shape;
}

const char* cycle_kind_name(CycleKind kind) {
  switch (kind) {
    case CycleKind::kExchangeSweep: return "exchange_sweep";
    case CycleKind::kExchangeRegions: return "exchange_regions";
    case CycleKind::kExchangeBlocked: return "exchange_blocked";
    case CycleKind::kOverlapRegions: return "overlap_regions";
    case CycleKind::kOverlapBlocked: return "overlap_blocked";
    case CycleKind::kOverlapPass: return "overlap_pass";
  }
  return "?";
}

}  // namespace cartex::app
