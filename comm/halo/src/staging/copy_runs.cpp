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
  if (open_length_ > 0 && a == open_a_ + open_length_ && b == open_b_ + open_length_ && stride == open_stride_ &&
      open_length_ < kMaxRun && (plane_ == 0 || b % plane_ != 0)) {
    ++open_length_;
    return;
  }
  close_row();
  open_a_ = a;
  open_b_ = b;
  open_length_ = 1;
  open_stride_ = stride;
}

void CopyRuns::Builder::close_row() {
  if (open_length_ == 0) return;
  if (!length_.empty() && length_.back() == open_length_ && stride_.back() == open_stride_ &&
      (count_.back() + 1) * open_length_ <= kMaxRun && (plane_ == 0 || open_b_ / plane_ == first_b_.back() / plane_)) {
    long& count = count_.back();
    if (count == 1) {
      step_a_.back() = open_a_ - first_a_.back();
      step_b_.back() = open_b_ - first_b_.back();
      ++count;
      open_length_ = 0;
      return;
    }
    if (open_a_ == first_a_.back() + count * step_a_.back() && open_b_ == first_b_.back() + count * step_b_.back()) {
      ++count;
      open_length_ = 0;
      return;
    }
  }
  first_a_.push_back(open_a_);
  first_b_.push_back(open_b_);
  length_.push_back(open_length_);
  stride_.push_back(open_stride_);
  count_.push_back(1);
  step_a_.push_back(0);
  step_b_.push_back(0);
  open_length_ = 0;
}

CopyRuns CopyRuns::Builder::build() const {
  Builder closed = *this;
  closed.close_row();
  if (plane_ == 0) return CopyRuns(closed);
  std::vector<size_t> order(closed.first_b_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto plane_of = [&](size_t i) { return closed.first_b_[i] / plane_; };
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) { return plane_of(i) < plane_of(j); });
  Builder sorted(plane_);
  sorted.cells_ = closed.cells_;
  for (const size_t i : order) {
    sorted.first_a_.push_back(closed.first_a_[i]);
    sorted.first_b_.push_back(closed.first_b_[i]);
    sorted.length_.push_back(closed.length_[i]);
    sorted.stride_.push_back(closed.stride_[i]);
    sorted.count_.push_back(closed.count_[i]);
    sorted.step_a_.push_back(closed.step_a_[i]);
    sorted.step_b_.push_back(closed.step_b_[i]);
  }
  return CopyRuns(sorted);
}

CopyRuns::CopyRuns(const Builder& b)
    : a_(core::to_device("cartex::copy_runs_a", b.first_a_)),
      b_(core::to_device("cartex::copy_runs_b", b.first_b_)),
      length_(core::to_device("cartex::copy_runs_length", b.length_)),
      stride_(core::to_device("cartex::copy_runs_stride", b.stride_)),
      count_(core::to_device("cartex::copy_runs_count", b.count_)),
      step_a_(core::to_device("cartex::copy_runs_step_a", b.step_a_)),
      step_b_(core::to_device("cartex::copy_runs_step_b", b.step_b_)),
      cells_(b.cells_) {}

CopyRuns::CopyRuns(const std::vector<long>& a, const std::vector<long>& b, const std::vector<long>& stride) {
  core::require(a.size() == b.size(), "copy runs: the two cell lists differ in length");
  core::require(stride.empty() || stride.size() == a.size(), "copy runs: the stride list differs in length");
  Builder runs;
  for (size_t i = 0; i < a.size(); ++i) runs.add(a[i], b[i], stride.empty() ? 0 : stride[i]);
  *this = runs.build();
}

template <class Src, class Dst>
void CopyRuns::chunks(const std::string& label, long n, Src&& src, Side from, bool src_strided, Dst&& dst, Side to,
                      bool dst_strided) const {
  if (runs() == 0) return;
  const auto start = [&](Side s) { return s == Side::kA ? a_ : b_; };
  const auto step = [&](Side s) { return s == Side::kA ? step_a_ : step_b_; };
  for (long q0 = 0; q0 < n; q0 += FieldPointers::kChunk) {
    End f{{}, start(from), step(from), src_strided}, t{{}, start(to), step(to), dst_strided};
    const int m = static_cast<int>(std::min<long>(FieldPointers::kChunk, n - q0));
    for (int q = 0; q < m; ++q) {
      f.ptr.p[q] = src(q0 + q);
      t.ptr.p[q] = dst(q0 + q);
    }
    f.ptr.n = t.ptr.n = m;
    copy(label, f, t, q0);
  }
}

void CopyRuns::a_to_b(const std::string& label, const double* from, double* to) const {
  chunks(label, 1, [&](long) { return const_cast<double*>(from); }, Side::kA, false, [&](long) { return to; }, Side::kB, false);
}

void CopyRuns::b_to_a(const std::string& label, const double* from, double* to) const {
  chunks(label, 1, [&](long) { return const_cast<double*>(from); }, Side::kB, false, [&](long) { return to; }, Side::kA, false);
}

void CopyRuns::fields_to_buffer(const std::string& label, const FieldSet& fields, double* buf) const {
  chunks(label, static_cast<long>(fields.size()), [&](long q) { return fields[static_cast<size_t>(q)].view.data(); }, Side::kA,
         false, [&](long) { return buf; }, Side::kB, true);
}

void CopyRuns::buffer_to_fields(const std::string& label, const double* buf, const FieldSet& fields) const {
  chunks(label, static_cast<long>(fields.size()), [&](long) { return const_cast<double*>(buf); }, Side::kB, true,
         [&](long q) { return fields[static_cast<size_t>(q)].view.data(); }, Side::kA, false);
}

void CopyRuns::within_fields(const std::string& label, const FieldSet& fields) const {
  const auto field = [&](long q) { return fields[static_cast<size_t>(q)].view.data(); };
  chunks(label, static_cast<long>(fields.size()), field, Side::kA, false, field, Side::kB, false);
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
    const long *sstart = src.start.data(), *dstart = dst.start.data(), *sstep = src.step.data(), *dstep = dst.step.data();
    const long *len = n.data(), *st = stride.data(), *rows = count_.data();
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, total), [=](const long i) {
      long r = i, q = 0;
      while (r >= nruns) {  // i / nruns without a division: at most kChunk - 1 steps
        r -= nruns;
        ++q;
      }
      const long fq = q0 + q;
      const double* from = from_p.p[q] + sstart[r] + (ss ? fq * st[r] : 0);
      double* to = to_p.p[q] + dstart[r] + (ds ? fq * st[r] : 0);
      for (long row = 0, m = len[r]; row < rows[r]; ++row, from += sstep[r], to += dstep[r])
        for (long c = 0; c < m; ++c) to[c] = from[c];
    });
  } else {
    // A team per run and field, its cells on the vector lanes: neighbouring lanes touch neighbouring
    // addresses.
    using Team = Kokkos::TeamPolicy<Exec>::member_type;
    const auto rows = count_;
    Kokkos::parallel_for(label, Kokkos::TeamPolicy<Exec>(static_cast<int>(total), Kokkos::AUTO), KOKKOS_LAMBDA(const Team& team) {
      const long q = team.league_rank() / nruns, r = team.league_rank() % nruns;
      const double* from = src.ptr.p[q] + src.start(r) + (src.strided ? (q0 + q) * stride(r) : 0);
      double* to = dst.ptr.p[q] + dst.start(r) + (dst.strided ? (q0 + q) * stride(r) : 0);
      const long m = n(r), ss = src.step(r), ds = dst.step(r);
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, m * rows(r)), [&](const long i) {
        const long row = i / m, c = i - row * m;
        to[row * ds + c] = from[row * ss + c];
      });
    });
  }
}

}  // namespace cartex::halo
