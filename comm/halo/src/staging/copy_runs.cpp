#include "staging/copy_runs.hpp"

#include <algorithm>
#include <string>

#include "cartex/core/device_copy.hpp"
#include "cartex/core/error.hpp"

namespace cartex::halo {

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
constexpr bool kHost = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible;

// Longer runs are cut, so that the threads of a rank share even a single contiguous face (16 KiB each).
constexpr long kMaxRun = 2048;

}  // namespace

void CopyRuns::Builder::add(long a, long b, long stride) {
  ++cells_;
  if (!length_.empty() && a == first_a_.back() + length_.back() && b == first_b_.back() + length_.back() &&
      stride == stride_.back() && length_.back() < kMaxRun) {
    ++length_.back();
    return;
  }
  first_a_.push_back(a);
  first_b_.push_back(b);
  length_.push_back(1);
  stride_.push_back(stride);
}

CopyRuns CopyRuns::Builder::build() const { return CopyRuns(*this); }

CopyRuns::CopyRuns(const Builder& b)
    : a_(core::to_device("cartex::copy_runs_a", b.first_a_)),
      b_(core::to_device("cartex::copy_runs_b", b.first_b_)),
      length_(core::to_device("cartex::copy_runs_length", b.length_)),
      stride_(core::to_device("cartex::copy_runs_stride", b.stride_)),
      cells_(b.cells_) {}

CopyRuns::CopyRuns(const std::vector<long>& a, const std::vector<long>& b, const std::vector<long>& stride) {
  core::require(a.size() == b.size(), "copy runs: the two cell lists differ in length");
  core::require(stride.empty() || stride.size() == a.size(), "copy runs: the stride list differs in length");
  Builder runs;
  for (size_t i = 0; i < a.size(); ++i) runs.add(a[i], b[i], stride.empty() ? 0 : stride[i]);
  *this = runs.build();
}

template <class Src, class Dst>
void CopyRuns::chunks(const std::string& label, long n, Src&& src, bool src_strided, const Kokkos::View<long*>& s, Dst&& dst,
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

void CopyRuns::a_to_b(const std::string& label, const double* from, double* to) const {
  chunks(label, 1, [&](long) { return const_cast<double*>(from); }, false, a_, [&](long) { return to; }, false, b_);
}

void CopyRuns::b_to_a(const std::string& label, const double* from, double* to) const {
  chunks(label, 1, [&](long) { return const_cast<double*>(from); }, false, b_, [&](long) { return to; }, false, a_);
}

void CopyRuns::fields_to_buffer(const std::string& label, const FieldSet& fields, double* buf) const {
  chunks(label, static_cast<long>(fields.size()), [&](long q) { return fields[static_cast<size_t>(q)].view.data(); }, false,
         a_, [&](long) { return buf; }, true, b_);
}

void CopyRuns::buffer_to_fields(const std::string& label, const double* buf, const FieldSet& fields) const {
  chunks(label, static_cast<long>(fields.size()), [&](long) { return const_cast<double*>(buf); }, true, b_,
         [&](long q) { return fields[static_cast<size_t>(q)].view.data(); }, false, a_);
}

void CopyRuns::within_fields(const std::string& label, const FieldSet& fields) const {
  const auto field = [&](long q) { return fields[static_cast<size_t>(q)].view.data(); };
  chunks(label, static_cast<long>(fields.size()), field, false, a_, field, false, b_);
}

void CopyRuns::copy(const std::string& label, const End& src, const End& dst, long q0) const {
  const auto n = length_;
  const auto stride = stride_;
  const long nruns = runs();
  const long total = nruns * src.ptr.n;
  if constexpr (kHost) {
    // One launch for every field of the chunk, its index the run of one field after another (field 0's
    // runs, then field 1's, ...): the memory is swept once per field, as a load alternating between
    // fields inside a run defeats the hardware's stride prefetcher on strided faces (measured at 128^3:
    // 4x slower, halobench --fields, docs/performance.md), and a set of N fields pays for one kernel
    // launch, not N (a launch costs about as much as a short run's copy).
    // Raw pointers into the run lists (host memory here): a launch copies its functor, and views would
    // count references on every copy.
    const FieldPointers from_p = src.ptr, to_p = dst.ptr;
    const bool ss = src.strided, ds = dst.strided;
    const long *sstart = src.start.data(), *dstart = dst.start.data(), *len = n.data(), *st = stride.data();
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, total), [=](const long i) {
      long r = i, q = 0;
      while (r >= nruns) {  // i / nruns without a division: at most kChunk - 1 steps
        r -= nruns;
        ++q;
      }
      const long fq = q0 + q;
      const double* from = from_p.p[q] + sstart[r] + (ss ? fq * st[r] : 0);
      double* to = to_p.p[q] + dstart[r] + (ds ? fq * st[r] : 0);
      for (long c = 0, m = len[r]; c < m; ++c) to[c] = from[c];
    });
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
