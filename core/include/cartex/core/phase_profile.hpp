#pragma once
// The phases of a time step, timed for the run summary's phase table (like PETSc's -log_view) and
// marked as Kokkos profiling regions of the same names, so Kokkos Tools (space-time-stack, kernel
// timer) show the same structure (docs/profiling.md).
//
//   { PhaseScope p(Phase::kHaloPack); pack kernel; deep_copy to the host buffer; }
//
// A PhaseScope reads MPI_Wtime twice and pushes/pops one Kokkos region (a null-pointer check when no
// tool is loaded): well under a microsecond, cheap enough for every step. It does NOT fence: device
// work is asynchronous, so a phase that launches kernels must end after a fence, and every
// instrumented device phase does (the step's fence after the update, the deep_copy to the host
// buffer after packing, the fence after unpacking). Phases may nest (a halo exchange inside
// diagnostics would be): the inner phase's time counts for it alone, not for the outer one, so the
// phases never add up to more than the wall time they cover.
//
// The totals are per process (one time loop per process), read by the driver at the end of its loop.
#include <mpi.h>

#include <array>
#include <string>

namespace cartex::core {

// What a rank is doing: the rows of the phase table, in table order.
enum class Phase : int {
  kUpdate,       // the stencil / point update kernels of a step
  kHaloPack,     // halo: gathering send blocks into buffers (and copying them to host memory for MPI)
  kHaloPost,     // halo: posting non-blocking receives and sends (and a zero-copy backend's set-up)
  kHaloTest,     // halo: progress() between chunks of an overlapped update (testing, moving data in MPI)
  kHaloWait,     // halo: waiting for messages, or a blocking exchange call as a whole
  kHaloUnpack,   // halo: copying received buffers to the device and scattering them into the halo
  kDiagnostics,  // field statistics, sine error and their allreduces
  kOutput,       // field files, XDMF index, checkpoints
};
inline constexpr int kPhaseCount = 8;

// A phase's table name ("halo pack"), Kokkos region name ("cartex::halo::pack"), and whether it is
// part of the halo exchange and part of the step time (output is not: the summary reports it apart).
struct PhaseInfo {
  std::string name;
  std::string region;
  bool halo;
  bool in_step;
};

// The row of `p`.
const PhaseInfo& phase_info(Phase p);

// Seconds and calls per phase on this process.
struct PhaseTotals {
  std::array<double, kPhaseCount> seconds{};
  std::array<long, kPhaseCount> calls{};

  double seconds_of(Phase p) const { return seconds[static_cast<int>(p)]; }
  long calls_of(Phase p) const { return calls[static_cast<int>(p)]; }
  // Sum of the halo phases: the exchange time the step did not hide.
  double halo_seconds() const;
};

// This process's totals since the last reset.
const PhaseTotals& phase_totals();
// Zeroes the totals (the driver does so when its time loop starts, after set-up exchanges).
void reset_phase_totals();

// Marks a Kokkos profiling region while alive (pushRegion/popRegion; Kokkos 3.4 has no ScopedRegion).
class RegionScope {
 public:
  explicit RegionScope(const std::string& name);
  ~RegionScope();
  RegionScope(const RegionScope&) = delete;
  RegionScope& operator=(const RegionScope&) = delete;
};

// Times phase `p` while alive and marks it as the Kokkos region phase_info(p).region.
class PhaseScope {
 public:
  explicit PhaseScope(Phase p);
  ~PhaseScope();
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  Phase phase_;
  PhaseScope* outer_;  // the enclosing phase, whose time excludes this one's
  double t0_;
};

}  // namespace cartex::core
