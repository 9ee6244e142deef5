#pragma once
// Backend "auto": builds every candidate, times a few exchanges of each on a scratch field, takes the
// slowest rank's median per candidate (so every rank picks the same) and keeps the fastest.
#include <memory>

#include "cartex/halo/halo_plan.hpp"

namespace cartex::detail {

// Builds the candidates, times them and returns the winner with a note on the choice.
std::unique_ptr<HaloPlan> make_auto_plan(const HaloGeometry& geo, const HaloPattern& pattern, MPI_Comm comm);

}  // namespace cartex::detail
