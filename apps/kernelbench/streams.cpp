// kernelbench_streams: why a 7-point stencil stays below the copy bound on one core.
//
// The same sweep as the stencil kernels (lines along x, y, then z, one prefetch of the next line
// from memory per cache line) over an n^3 field with a one-cell halo, but summing a growing set of
// input streams: u alone (a copy through the sweep), then + u(z+1), + u(z-1), + u(y-1) + u(y+1),
// + u(x-1) + u(x+1) (the 7-point sum). Each row is the best of `repeats` sweeps, in MLUP/s and as a
// fraction of the copy bound measured first (b[i] = a[i] over 3 x 2^24 doubles, 16 B per element,
// ordinary stores like kernelbench's Kokkos copy).
// Plain C++ loops that the compiler vectorises; host memory only (diagnostic, docs/performance.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

namespace {

// One sweep with S + 1 kinds of input streams (see the header comment).
template <int S>
void sweep(const double* u, double* v, long n) {
  const long sx = n + 2, sy = sx * (n + 2);
  for (long k = 1; k <= n; ++k)
    for (long j = 1; j <= n; ++j) {
      const double* __restrict x = u + k * sy + j * sx + 1;
      double* __restrict y = v + k * sy + j * sx + 1;
      for (long i = 0; i < n; i += 8) __builtin_prefetch(x + i + sy + sx);  // the next line from memory
#pragma GCC ivdep
      for (long i = 0; i < n; ++i) {
        double s = x[i];
        if constexpr (S >= 1) s += x[i + sy];
        if constexpr (S >= 2) s += x[i - sy];
        if constexpr (S >= 3) s += x[i - sx] + x[i + sx];
        if constexpr (S >= 4) s += x[i - 1] + x[i + 1];
        y[i] = s;
      }
    }
}

template <class F>
double best_time(int repeats, F&& f) {
  double best = std::numeric_limits<double>::max();
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kernelbench_streams: the stencil sweep with 1 to 7 input streams against the copy bound"};
  long n = 256;
  int repeats = 10;
  app.add_option("--n", n, "cube edge (cells n^3 plus a one-cell halo)")->check(CLI::Range(8L, 1024L));
  app.add_option("--repeats", repeats, "sweeps per row (best reported)")->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);

  // Copy bound, as kernelbench measures it: a vector loop with ordinary stores. (b = a + zero, zero
  // known only at run time: a plain b = a would become a call to memcpy, which streams.)
  const long m = 3L << 24;
  std::vector<double> a(m, 1.0), b(m, 0.0);
  volatile double zero_source = 0.0;
  const double zero = zero_source;
  const double tc = best_time(repeats, [&] {
    const double* __restrict pa = a.data();
    double* __restrict pb = b.data();
#pragma GCC ivdep
    for (long i = 0; i < m; ++i) pb[i] = pa[i] + zero;
  });
  const double bound = 16.0 * m / tc / 16.0 / 1e6;
  fmt::print("copy {:.2f} GB/s, bound {:.1f} MLUP/s (16 B per cell)\n", 16.0 * m / tc / 1e9, bound);

  const long total = (n + 2) * (n + 2) * (n + 2);
  std::vector<double> u(total, 1.0), v(total, 0.0);
  const char* names[] = {"u", "+ u(z+1)", "+ u(z-1)", "+ u(y-1) + u(y+1)", "+ u(x-1) + u(x+1) (7-point sum)"};
  const auto row = [&](int streams, auto run) {
    const double t = best_time(repeats, run);
    const double mlups = static_cast<double>(n) * n * n / t / 1e6;
    fmt::print("{:<34} {:8.1f} MLUP/s {:5.0f}% of bound\n", names[streams], mlups, 100 * mlups / bound);
  };
  row(0, [&] { sweep<0>(u.data(), v.data(), n); });
  row(1, [&] { sweep<1>(u.data(), v.data(), n); });
  row(2, [&] { sweep<2>(u.data(), v.data(), n); });
  row(3, [&] { sweep<3>(u.data(), v.data(), n); });
  row(4, [&] { sweep<4>(u.data(), v.data(), n); });
  return 0;
}
