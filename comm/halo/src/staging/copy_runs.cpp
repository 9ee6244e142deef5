#include "staging/copy_runs.hpp"

#include "cartex/core/device_copy.hpp"
#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
constexpr bool kHost = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;

// Longer runs are cut, so that the threads of a rank share even a single contiguous face (16 KiB each).
constexpr long kMaxRun = 2048;

}  // namespace

CopyRuns::CopyRuns(const std::vector<long>& a, const std::vector<long>& b) : cells_(static_cast<long>(a.size())) {
  core::require(a.size() == b.size(), "copy runs: the two cell lists differ in length");
  std::vector<long> first_a, first_b, length;
  for (size_t i = 0; i < a.size(); ++i) {
    if (i > 0 && a[i] == a[i - 1] + 1 && b[i] == b[i - 1] + 1 && length.back() < kMaxRun) {
      ++length.back();
      continue;
    }
    first_a.push_back(a[i]);
    first_b.push_back(b[i]);
    length.push_back(1);
  }
  a_ = core::to_device("cartex::copy_runs_a", first_a);
  b_ = core::to_device("cartex::copy_runs_b", first_b);
  length_ = core::to_device("cartex::copy_runs_length", length);
}

void CopyRuns::a_to_b(const char* label, const double* from, double* to) const { copy(label, from, a_, to, b_); }

void CopyRuns::b_to_a(const char* label, const double* from, double* to) const { copy(label, from, b_, to, a_); }

void CopyRuns::copy(const char* label, const double* src, const Kokkos::View<long*>& s, double* dst, const Kokkos::View<long*>& d) const {
  const auto n = length_;
  if constexpr (kHost) {
    // A run per iteration: a plain loop the compiler turns into vector loads and stores.
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, runs()), [=](const long r) {
      const double* from = src + s(r);
      double* to = dst + d(r);
      for (long i = 0, len = n(r); i < len; ++i) to[i] = from[i];
    });
  } else {
    // A team per run, its cells on the vector lanes: neighbouring lanes touch neighbouring addresses.
    using Team = Kokkos::TeamPolicy<Exec>::member_type;
    Kokkos::parallel_for(label, Kokkos::TeamPolicy<Exec>(static_cast<int>(runs()), Kokkos::AUTO), KOKKOS_LAMBDA(const Team& team) {
      const long r = team.league_rank();
      const double* from = src + s(r);
      double* to = dst + d(r);
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n(r)), [&](const long i) { to[i] = from[i]; });
    });
  }
}

}  // namespace cartex::halo
