#include "cartex/core/phase_profile.hpp"

#include <Kokkos_Core.hpp>

namespace cartex::core {

namespace {

const std::array<PhaseInfo, kPhaseCount> kPhases{{
    {"update", "cartex::update", false, true},
    {"halo pack", "cartex::halo::pack", true, true},
    {"halo post", "cartex::halo::post", true, true},
    {"halo test", "cartex::halo::test", true, true},
    {"halo wait", "cartex::halo::wait", true, true},
    {"halo unpack", "cartex::halo::unpack", true, true},
    {"diagnostics", "cartex::diagnostics", false, true},
    {"output", "cartex::output", false, false},
}};

PhaseTotals totals;
PhaseScope* innermost = nullptr;  // the phase running now (phases are entered on the host thread only)

}  // namespace

const PhaseInfo& phase_info(Phase p) { return kPhases[static_cast<int>(p)]; }

double PhaseTotals::halo_seconds() const {
  double s = 0;
  for (int p = 0; p < kPhaseCount; ++p)
    if (kPhases[p].halo) s += seconds[p];
  return s;
}

const PhaseTotals& phase_totals() { return totals; }

void reset_phase_totals() { totals = PhaseTotals{}; }

RegionScope::RegionScope(const std::string& name) { Kokkos::Profiling::pushRegion(name); }

RegionScope::~RegionScope() { Kokkos::Profiling::popRegion(); }

PhaseScope::PhaseScope(Phase p) : phase_(p), outer_(innermost) {
  Kokkos::Profiling::pushRegion(phase_info(p).region);
  innermost = this;
  t0_ = MPI_Wtime();
}

PhaseScope::~PhaseScope() {
  const double dt = MPI_Wtime() - t0_;
  totals.seconds[static_cast<int>(phase_)] += dt;
  ++totals.calls[static_cast<int>(phase_)];
  if (outer_) totals.seconds[static_cast<int>(outer_->phase_)] -= dt;
  innermost = outer_;
  Kokkos::Profiling::popRegion();
}

}  // namespace cartex::core
