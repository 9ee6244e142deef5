#include "staging/copy_runs.hpp"

#include <algorithm>

#include "cartex/core/device_copy.hpp"
#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
constexpr bool kHost = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;

// Longer runs are cut, so that the threads of a rank share even a single contiguous face (16 KiB each).
constexpr long kMaxRun = 2048;

}  // namespace

CopyRuns::CopyRuns(const std::vector<long>& a, const std::vector<long>& b, const std::vector<long>& stride)
    : cells_(static_cast<long>(a.size())) {
  core::require(a.size() == b.size(), "copy runs: the two cell lists differ in length");
  core::require(stride.empty() || stride.size() == a.size(), "copy runs: the stride list differs in length");
  std::vector<long> first_a, first_b, length, run_stride;
  for (size_t i = 0; i < a.size(); ++i) {
    const long st = stride.empty() ? 0 : stride[i];
    if (i > 0 && a[i] == a[i - 1] + 1 && b[i] == b[i - 1] + 1 && st == run_stride.back() && length.back() < kMaxRun) {
      ++length.back();
      continue;
    }
    first_a.push_back(a[i]);
    first_b.push_back(b[i]);
    length.push_back(1);
    run_stride.push_back(st);
  }
  a_ = core::to_device("cartex::copy_runs_a", first_a);
  b_ = core::to_device("cartex::copy_runs_b", first_b);
  length_ = core::to_device("cartex::copy_runs_length", length);
  stride_ = core::to_device("cartex::copy_runs_stride", run_stride);
}

template <class Src, class Dst>
void CopyRuns::chunks(const char* label, long n, Src&& src, bool src_strided, const Kokkos::View<long*>& s, Dst&& dst,
                      bool dst_strided, const Kokkos::View<long*>& d) const {
  if (runs() == 0) return;
  for (long q0 = 0; q0 < n; q0 += FieldPointers::kChunk) {
    End from{{}, s, src_strided}, to{{}, d, dst_strided};
    const int m = static_cast<int>(std::min<long>(FieldPointers::kChunk, n - q0));
    for (int q = 0; q < m; ++q) {
      from.ptr.p[q] = src(q0 + q);
      to.ptr.p[q] = dst(q0 + q);
    }
    from.ptr.n = to.ptr.n = m;
    copy(label, from, to, q0);
  }
}

void CopyRuns::a_to_b(const char* label, const double* from, double* to) const {
  chunks(label, 1, [&](long) { return const_cast<double*>(from); }, false, a_, [&](long) { return to; }, false, b_);
}

void CopyRuns::b_to_a(const char* label, const double* from, double* to) const {
  chunks(label, 1, [&](long) { return const_cast<double*>(from); }, false, b_, [&](long) { return to; }, false, a_);
}

void CopyRuns::fields_to_buffer(const char* label, const FieldSet& fields, double* buf) const {
  chunks(label, static_cast<long>(fields.size()), [&](long q) { return fields[static_cast<size_t>(q)].view.data(); }, false,
         a_, [&](long) { return buf; }, true, b_);
}

void CopyRuns::buffer_to_fields(const char* label, const double* buf, const FieldSet& fields) const {
  chunks(label, static_cast<long>(fields.size()), [&](long) { return const_cast<double*>(buf); }, true, b_,
         [&](long q) { return fields[static_cast<size_t>(q)].view.data(); }, false, a_);
}

void CopyRuns::within_fields(const char* label, const FieldSet& fields) const {
  const auto field = [&](long q) { return fields[static_cast<size_t>(q)].view.data(); };
  chunks(label, static_cast<long>(fields.size()), field, false, a_, field, false, b_);
}

void CopyRuns::copy(const char* label, const End& src, const End& dst, long q0) const {
  const auto n = length_;
  const auto stride = stride_;
  const long nruns = runs();
  const long total = nruns * src.ptr.n;
  if constexpr (kHost) {
    // One sweep over the runs per field (a run per iteration: a plain loop the compiler turns into
    // vector loads and stores). Not the fields inside a run: a load alternating between fields defeats
    // the hardware's stride prefetcher on strided faces (measured at 128^3: 4x slower, halobench
    // --fields, docs/performance.md).
    for (int q = 0; q < src.ptr.n; ++q) {
      const double* from0 = src.ptr.p[q];
      double* to0 = dst.ptr.p[q];
      const long fq = q0 + q;
      const bool ss = src.strided, ds = dst.strided;
      const auto sstart = src.start, dstart = dst.start;
      Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, nruns), [=](const long r) {
        const long st = stride(r);
        const double* from = from0 + sstart(r) + (ss ? fq * st : 0);
        double* to = to0 + dstart(r) + (ds ? fq * st : 0);
        for (long i = 0, len = n(r); i < len; ++i) to[i] = from[i];
      });
    }
  } else {
    // A team per run and field, its cells on the vector lanes: neighbouring lanes touch neighbouring
    // addresses.
    using Team = Kokkos::TeamPolicy<Exec>::member_type;
    Kokkos::parallel_for(label, Kokkos::TeamPolicy<Exec>(static_cast<int>(total), Kokkos::AUTO), KOKKOS_LAMBDA(const Team& team) {
      const long q = team.league_rank() / nruns, r = team.league_rank() % nruns;
      const double* from = src.ptr.p[q] + src.start(r) + (src.strided ? (q0 + q) * stride(r) : 0);
      double* to = dst.ptr.p[q] + dst.start(r) + (dst.strided ? (q0 + q) * stride(r) : 0);
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n(r)), [&](const long i) { to[i] = from[i]; });
    });
  }
}

}  // namespace cartex::halo
