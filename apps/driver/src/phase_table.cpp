#include "phase_table.hpp"

#include <fmt/format.h>

#include <vector>

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"

namespace cartex::app {

namespace {

// Rows after the phases: the step time not spent in a phase, and the step time itself.
constexpr int kOther = core::kPhaseCount, kStep = core::kPhaseCount + 1, kRows = core::kPhaseCount + 2;

// Element-wise min, sum and max of `v` over comm.
struct Reduced {
  std::vector<double> min, sum, max;
};

Reduced reduce(const std::vector<double>& v, MPI_Comm comm) {
  Reduced r{v, v, v};
  const int n = static_cast<int>(v.size());
  for (auto [out, op] : {std::pair{&r.min, MPI_MIN}, std::pair{&r.sum, MPI_SUM}, std::pair{&r.max, MPI_MAX}})
    if (MPI_Allreduce(v.data(), out->data(), n, MPI_DOUBLE, op, comm) != MPI_SUCCESS)
      throw core::Error("MPI_Allreduce of the phase table failed");
  return r;
}

}  // namespace

std::string phase_table(const core::PhaseTotals& phases, double step_seconds, MPI_Comm comm) {
  int size = 1;
  core::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  // Per rank: seconds of every row, their shares of this rank's step time, calls.
  std::vector<double> v(3 * kRows, 0.0);
  double* seconds = v.data();
  double* share = seconds + kRows;
  double* calls = share + kRows;
  double in_step = 0;
  for (int p = 0; p < core::kPhaseCount; ++p) {
    seconds[p] = phases.seconds[p];
    calls[p] = static_cast<double>(phases.calls[p]);
    if (core::phase_info(static_cast<core::Phase>(p)).in_step) in_step += seconds[p];
  }
  seconds[kOther] = step_seconds - in_step;
  seconds[kStep] = step_seconds;
  for (int row = 0; row < kRows; ++row) share[row] = step_seconds > 0 ? seconds[row] / step_seconds : 0.0;
  const Reduced r = reduce(v, comm);

  std::string t = "  phases          seconds per rank (min / avg / max), share of the step time (avg over ranks), calls\n";
  const auto line = [&](int row, const std::string& name, const std::string& calls_text, const char* note) {
    t += fmt::format("    {:<13} {:>11.4e} {:>11.4e} {:>11.4e} {:>7.1f}% {:>7}{}\n", name, r.min[row], r.sum[row] / size, r.max[row],
                     100 * r.sum[kRows + row] / size, calls_text, note);
  };
  // Calls per rank: one number, or the range when ranks differ.
  const auto calls_of = [&](int p) {
    const long lo = static_cast<long>(r.min[2 * kRows + p]), hi = static_cast<long>(r.max[2 * kRows + p]);
    return lo == hi ? fmt::format("{}", hi) : fmt::format("{}-{}", lo, hi);
  };
  const auto phase_rows = [&](bool in_step, const char* note) {
    for (int p = 0; p < core::kPhaseCount; ++p)
      if (core::phase_info(static_cast<core::Phase>(p)).in_step == in_step)
        line(p, core::phase_info(static_cast<core::Phase>(p)).name, calls_of(p), note);
  };
  phase_rows(true, "");
  line(kOther, "other", "-", "  (step time outside the phases)");
  line(kStep, "step time", "-", "");
  phase_rows(false, "  (not part of the step time)");
  return t;
}

}  // namespace cartex::app
