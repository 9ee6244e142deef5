#pragma once
// The stencil kernels: one struct per specialized shape (offsets fixed at compile time, strides and
// weights at run time) and the generic kernel (everything from tables), each evaluating the plan's
// expression tree (stencil_plan.hpp) for one cell (V = double) or a vector of cells (V = simd::Vec).
//
// A kernel K provides
//   acc<V>(src)          the stencil sum at the cell(s) of src, where src(offset) loads u at an offset
//                        and src.col(w, dx) is the sum of K's windowed column w at x + dx
//   windows(), reach(w), column<V>(w, u[, lanes])
//                        the columns that are worth summing once per x position and reusing at
//                        neighbouring x (the boxes'): how many, their x reach, their sum at u (its
//                        loads through `lanes`, a Lanes or LanesWithin)
// Two sources: Inline computes a column where it is used (devices; on the host the generic kernel's
// and the stars' cells outside a line's aligned middle); on the host's aligned vectors, Window holds
// each column's sums for the vectors before, at and after the current one and shifts lanes
// (simd::shifted), so every column is summed once per x position. host_run() sweeps one run of a line
// with any kernel.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "cartex/kernels/stencil_update.hpp"
#include "host_simd.hpp"
#include "stencil_plan.hpp"

namespace cartex::kernels::detail {

// Loads and constants for a lane type.
template <class V>
struct Lanes;

template <>
struct Lanes<double> {
  KOKKOS_FORCEINLINE_FUNCTION static double load(const double* p) { return *p; }
  KOKKOS_FORCEINLINE_FUNCTION static double splat(double a) { return a; }
};

template <>
struct Lanes<simd::Vec> {
  CARTEX_SIMD_FUNCTION static simd::Vec load(const double* p) { return simd::load(p); }
  CARTEX_SIMD_FUNCTION static simd::Vec splat(double a) { return simd::splat(a); }
};

// Vector loads of lanes [from, to) only, the others 0: the vectors at a run's ends (window sums, and
// the boxes' end vectors), which must not read outside the run or the kernel's reach but are still
// computed as whole vectors (a lane computes what the scalar code gives for its cell).
struct LanesWithin {
  int from, to;
  // The lanes l of the vector at x = s with lo <= s + l < hi.
  CARTEX_SIMD_FUNCTION static LanesWithin of(long s, long lo, long hi) {
    // Clamped by hand: std::min/max are host functions, and this runs in device kernels too.
    constexpr long W = simd::Vec::kWidth;
    const long f = lo - s, t = hi - s;
    const int from = static_cast<int>(f < 0 ? 0 : f > W ? W : f);
    const int to = static_cast<int>(t < 0 ? 0 : t > W ? W : t);
    return {from, to > from ? to : from};
  }
  CARTEX_SIMD_FUNCTION simd::Vec load(const double* p) const { return simd::load_lanes(p, from, to); }
};

// Windowed columns of the generic kernel (the specialized kernels have at most 2).
constexpr int kMaxWindows = 8;

// f(std::integral_constant<int, I>{}) for I = 0 .. N - 1.
template <int N, class F, int... I>
KOKKOS_FORCEINLINE_FUNCTION void static_for(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
KOKKOS_FORCEINLINE_FUNCTION void static_for(F&& f) {
  static_for<N>(f, std::make_integer_sequence<int, N>{});
}

// f(std::integral_constant<int, dx>{}) for a lane shift dx in [-8, 8] (a window's reach).
template <class F>
KOKKOS_FORCEINLINE_FUNCTION void with_shift(int dx, F&& f) {
  switch (dx) {
    case -8: return f(std::integral_constant<int, -8>{});
    case -7: return f(std::integral_constant<int, -7>{});
    case -6: return f(std::integral_constant<int, -6>{});
    case -5: return f(std::integral_constant<int, -5>{});
    case -4: return f(std::integral_constant<int, -4>{});
    case -3: return f(std::integral_constant<int, -3>{});
    case -2: return f(std::integral_constant<int, -2>{});
    case -1: return f(std::integral_constant<int, -1>{});
    case 0: return f(std::integral_constant<int, 0>{});
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 7: return f(std::integral_constant<int, 7>{});
    default: return f(std::integral_constant<int, 8>{});
  }
}

// u around the cell(s) at `u`, columns summed where they are used.
template <class V, class K>
struct Inline {
  const K& k;
  const double* u;
  KOKKOS_FORCEINLINE_FUNCTION V operator()(long offset) const { return Lanes<V>::load(u + offset); }
  KOKKOS_FORCEINLINE_FUNCTION V col(int w, int dx) const { return k.template column<V>(w, u + dx); }
  KOKKOS_FORCEINLINE_FUNCTION const double* ptr() const { return u; }
};

// Column w's sums for the vectors before (prev), at (cur) and after (next) the current one.
template <int N>
struct Windows {
  simd::Vec prev[N], cur[N], next[N];
  // On to the next vector (next is then stale until set), for the first `Used` windows.
  template <int Used>
  KOKKOS_FORCEINLINE_FUNCTION void shift() {
    for (int w = 0; w < Used; ++w) {
      prev[w] = cur[w];
      cur[w] = next[w];
    }
  }
};

// u around the vector at `u` (loaded through `lanes`: all, or a run's end vector's lanes in the run),
// columns from the windows.
template <int N, class L = Lanes<simd::Vec>>
struct Window {
  const double* u;
  const Windows<N>& win;
  L lanes = {};
  CARTEX_SIMD_FUNCTION simd::Vec operator()(long offset) const { return lanes.load(u + offset); }
  CARTEX_SIMD_FUNCTION simd::Vec col(int w, int dx) const { return simd::shifted(win.prev[w], win.cur[w], win.next[w], dx); }
  CARTEX_SIMD_FUNCTION const double* ptr() const { return u; }
};

// The scheme's new value from u, the old value of the output and the stencil sum.
template <core::Integrator S, class V>
KOKKOS_FORCEINLINE_FUNCTION V scheme_step(V u, V v_old, V acc, double coeff) {
  if constexpr (S == core::Integrator::kLeapfrog)
    return (Lanes<V>::splat(2.0) * u - v_old) + Lanes<V>::splat(coeff) * acc;
  else
    return u + Lanes<V>::splat(coeff) * acc;
}

// ---------------------------------------------------------------------------------------------
// Star of radius R in D dimensions. C1, C2: spacing class of y and z (x is class 0; classes numbered
// by their first dimension; C2 = 0 in 2D). Plan: the centre, then per class and k = 1..R one group:
//   class of x:   (u[-k] + column_k) + u[+k], column_k = the class's y/z pairs ((y- + y+) + z-) + z+
//                 (just u[-k] + u[+k] if x is alone in its class)
//   other class:  its pairs, (y- + y+), (z- + z+) or ((y- + y+) + z-) + z+
// Every column is used at one x position, so none is windowed.
template <int D, int R, int C1, int C2>
struct StarKernel {
  static constexpr int kWindows = 0;
  static constexpr int kClasses = 1 + (C1 > C2 ? C1 : C2);
  long sy, sz;
  double w0;
  Kokkos::Array<double, 3 * R> w;  // w[c * R + k - 1]

  static StarKernel make(const StencilPlan& plan, long sy, long sz) {
    StarKernel k{sy, sz, plan.groups[0].weight, {}};
    for (int g = 0; g < kClasses * R; ++g) k.w[g] = plan.groups[1 + g].weight;
    return k;
  }

  KOKKOS_FORCEINLINE_FUNCTION int windows() const { return 0; }
  KOKKOS_FORCEINLINE_FUNCTION int reach(int) const { return 0; }
  template <class V, class L = Lanes<V>>
  KOKKOS_FORCEINLINE_FUNCTION V column(int, const double* u, const L& lanes = {}) const {
    return lanes.load(u);
  }

  // The y and z pairs of class C at distance K, left to right.
  template <int C, int K, class V, class Src>
  KOKKOS_FORCEINLINE_FUNCTION V pairs(const Src& a) const {
    constexpr bool y = C1 == C, z = D == 3 && C2 == C;
    if constexpr (y && z)
      return ((a(-K * sy) + a(K * sy)) + a(-K * sz)) + a(K * sz);
    else if constexpr (y)
      return a(-K * sy) + a(K * sy);
    else
      return a(-K * sz) + a(K * sz);
  }

  template <int C, int K, class V, class Src>
  KOKKOS_FORCEINLINE_FUNCTION V group(const Src& a) const {
    if constexpr (C != 0)
      return pairs<C, K, V>(a);
    else if constexpr (C1 == 0 || (D == 3 && C2 == 0))
      return (a(-K) + pairs<0, K, V>(a)) + a(K);
    else
      return a(-K) + a(K);
  }

  template <int C, class V, class Src, int... K>
  KOKKOS_FORCEINLINE_FUNCTION void add_class(const Src& a, V& s, std::integer_sequence<int, K...>) const {
    ((s = s + Lanes<V>::splat(w[C * R + K]) * group<C, K + 1, V>(a)), ...);
  }

  template <class V, class Src>
  KOKKOS_FORCEINLINE_FUNCTION V acc(const Src& a) const {
    V s = Lanes<V>::splat(w0) * a(0);
    add_class<0>(a, s, std::make_integer_sequence<int, R>{});
    if constexpr (kClasses > 1) add_class<1>(a, s, std::make_integer_sequence<int, R>{});
    if constexpr (kClasses > 2) add_class<2>(a, s, std::make_integer_sequence<int, R>{});
    return s;
  }
};

// ---------------------------------------------------------------------------------------------
// The 3x3x3 box (weights by number of non-zero offset components). Columns: m1 = the four lines with
// one non-zero of (dy, dz), m2 = the four with two, c0 = the line itself. Groups in order of first
// appearance: corners m2[-1] + m2[+1]; edges (m1[-1] + m2[0]) + m1[+1]; faces (c0[-1] + m1[0]) + c0[+1];
// centre c0[0]. m1 and m2 are windowed: summed once per x, used at three x positions.
struct Box27Kernel {
  static constexpr int kWindows = 2;
  long sy, sz;
  double wc, we, wf, w0;

  static Box27Kernel make(const StencilPlan& plan, long sy, long sz) {
    return {sy, sz, plan.groups[0].weight, plan.groups[1].weight, plan.groups[2].weight, plan.groups[3].weight};
  }

  KOKKOS_FORCEINLINE_FUNCTION int windows() const { return 2; }
  KOKKOS_FORCEINLINE_FUNCTION int reach(int) const { return 1; }
  // w = 0: m1, lines (dy, dz) = (0,-1), (-1,0), (1,0), (0,1); w = 1: m2 = (-1,-1), (1,-1), (-1,1), (1,1).
  template <class V, class L = Lanes<V>>
  KOKKOS_FORCEINLINE_FUNCTION V column(int w, const double* u, const L& l = {}) const {
    if (w == 0) return ((l.load(u - sz) + l.load(u - sy)) + l.load(u + sy)) + l.load(u + sz);
    return ((l.load(u - sy - sz) + l.load(u + sy - sz)) + l.load(u - sy + sz)) + l.load(u + sy + sz);
  }

  template <class V, class Src>
  KOKKOS_FORCEINLINE_FUNCTION V acc(const Src& a) const {
    using L = Lanes<V>;
    const V corners = a.col(1, -1) + a.col(1, 1);
    const V edges = (a.col(0, -1) + a.col(1, 0)) + a.col(0, 1);
    const V faces = (a(-1) + a.col(0, 0)) + a(1);
    return ((L::splat(wc) * corners + L::splat(we) * edges) + L::splat(wf) * faces) + L::splat(w0) * a(0);
  }
};

// The 3x3 box in 2D: column m = lines dy = -1, +1 (windowed). Groups: corners m[-1] + m[+1]; faces
// (c0[-1] + m[0]) + c0[+1]; centre c0[0].
struct Box9Kernel {
  static constexpr int kWindows = 1;
  long sy;
  double wc, wf, w0;

  static Box9Kernel make(const StencilPlan& plan, long sy, long) {
    return {sy, plan.groups[0].weight, plan.groups[1].weight, plan.groups[2].weight};
  }

  KOKKOS_FORCEINLINE_FUNCTION int windows() const { return 1; }
  KOKKOS_FORCEINLINE_FUNCTION int reach(int) const { return 1; }
  template <class V, class L = Lanes<V>>
  KOKKOS_FORCEINLINE_FUNCTION V column(int, const double* u, const L& l = {}) const {
    return l.load(u - sy) + l.load(u + sy);
  }

  template <class V, class Src>
  KOKKOS_FORCEINLINE_FUNCTION V acc(const Src& a) const {
    using L = Lanes<V>;
    const V corners = a.col(0, -1) + a.col(0, 1);
    const V faces = (a(-1) + a.col(0, 0)) + a(1);
    return (L::splat(wc) * corners + L::splat(wf) * faces) + L::splat(w0) * a(0);
  }
};

// ---------------------------------------------------------------------------------------------
// Any stencil, from the plan as tables (views in the default memory space). On the host, columns
// with two or more lines that several parts use, within a vector's reach in x, are windowed (the
// first kMaxWindows of them); GenericMiddle evaluates the plan on the aligned middle of a run.
struct GenericKernel {
  static constexpr int kWindows = kMaxWindows;
  int groups;
  int parts;
  const double* weight;      // per group
  const int* group_end;      // parts of group g: [group_end[g - 1], group_end[g])
  const int* part_column;    // per part
  const int* part_dx;        // per part
  const int* column_end;     // lines of column c: [column_end[c - 1], column_end[c])
  const long* line_offset;   // per line: dy * sy + dz * sz
  const int* column_window;  // window of column c, or -1
  const int* part_kind;      // per part: how GenericMiddle evaluates it (GenericMiddle::Kind)
  const long* part_offset;   // per part: kLine: line offset + dx; else dx
  int window_count;
  Kokkos::Array<int, kMaxWindows> window_column, window_reach;

  KOKKOS_FORCEINLINE_FUNCTION int windows() const { return window_count; }
  KOKKOS_FORCEINLINE_FUNCTION int reach(int w) const { return window_reach[w]; }

  template <class V, class L = Lanes<V>>
  KOKKOS_FORCEINLINE_FUNCTION V column_sum(int c, const double* u, const L& lanes = {}) const {
    int l = c == 0 ? 0 : column_end[c - 1];
    V s = lanes.load(u + line_offset[l]);
    for (++l; l < column_end[c]; ++l) s = s + lanes.load(u + line_offset[l]);
    return s;
  }
  template <class V, class L = Lanes<V>>
  KOKKOS_FORCEINLINE_FUNCTION V column(int w, const double* u, const L& lanes = {}) const {
    return column_sum<V>(window_column[w], u, lanes);
  }

  template <class V, class Src>
  KOKKOS_FORCEINLINE_FUNCTION V part(const Src& a, int j) const {
    const int c = part_column[j], dx = part_dx[j];
    const int first = c == 0 ? 0 : column_end[c - 1];
    if (column_end[c] - first == 1) return a(line_offset[first] + dx);
    if (column_window[c] >= 0) return a.col(column_window[c], dx);
    return column_sum<V>(c, a.ptr() + dx);
  }

  template <class V, class Src>
  KOKKOS_FORCEINLINE_FUNCTION V group(const Src& a, int g) const {
    int j = g == 0 ? 0 : group_end[g - 1];
    V s = part<V>(a, j);
    for (++j; j < group_end[g]; ++j) s = s + part<V>(a, j);
    return Lanes<V>::splat(weight[g]) * s;
  }

  template <class V, class Src>
  KOKKOS_FORCEINLINE_FUNCTION V acc(const Src& a) const {
    V s = group<V>(a, 0);
    for (int g = 1; g < groups; ++g) s = s + group<V>(a, g);
    return s;
  }
};

// ---------------------------------------------------------------------------------------------
// The generic kernel on a run's aligned middle, B vectors at a time: the tables are read once per
// part and block, and the block's group and running sums stay in registers. A part is a load from u
// (one line), a shift of a windowed column's sums, or a column summed where it is used.
struct GenericMiddle {
  enum Kind { kLine = 0, kWindow = 1, kInline = 2 };
  const GenericKernel& k;
  const double* u;  // the run's first cell

  // x[v] = column c's sum for the vector at i + v W, v < B: lines outer, so that the B sums are
  // independent chains.
  template <int B>
  void sum_column(simd::Vec (&x)[B], int c, long i) const {
    constexpr long W = simd::Vec::kWidth;
    int l = c == 0 ? 0 : k.column_end[c - 1];
    const double* p = u + i + k.line_offset[l];
    static_for<B>([&](auto v) { x[v] = simd::load(p + v * W); });
    for (++l; l < k.column_end[c]; ++l) {
      p = u + i + k.line_offset[l];
      static_for<B>([&](auto v) { x[v] = x[v] + simd::load(p + v * W); });
    }
  }

  // acc for the B vectors at i0, i0 + W, ...; C[w][v]: window w's sums for the vector at
  // i0 + (v - 1) W, v = 0 .. B + 1. The loops over v unroll at compile time (static_for), so that the
  // group and running sums are registers.
  template <int B, int CB>
  void block(long i0, simd::Vec (&acc)[B], const simd::Vec (&C)[kMaxWindows][CB]) const {
    using simd::Vec;
    constexpr long W = Vec::kWidth;
    Vec G[B] = {}, x[B] = {};
    int j = 0;
    for (int g = 0; g < k.groups; ++g) {
      for (const int first = j; j < k.group_end[g]; ++j) {
        const long off = k.part_offset[j];
        switch (k.part_kind[j]) {
          case kLine:
            static_for<B>([&](auto v) { x[v] = simd::load(u + i0 + v * W + off); });
            break;
          case kWindow: {
            const auto& c = C[k.column_window[k.part_column[j]]];
            with_shift(static_cast<int>(off), [&](auto s) {
              static_for<B>([&](auto v) { x[v] = simd::shifted(c[v], c[v + 1], c[v + 2], s); });
            });
            break;
          }
          default:
            sum_column<B>(x, k.part_column[j], i0 + off);
            break;
        }
        if (j == first)
          static_for<B>([&](auto v) { G[v] = x[v]; });
        else
          static_for<B>([&](auto v) { G[v] = G[v] + x[v]; });
      }
      const Vec w = simd::splat(k.weight[g]);
      if (g == 0)
        static_for<B>([&](auto v) { acc[v] = w * G[v]; });
      else
        static_for<B>([&](auto v) { acc[v] = acc[v] + w * G[v]; });
    }
  }
};

// Host: window w's vector at x = s of a run of n cells at u that reaches past its ends: the lanes
// within the kernel's reach (the others 0).
template <class K>
KOKKOS_FORCEINLINE_FUNCTION simd::Vec window_near_end(const K& k, int w, const double* u, long s, long n) {
  return k.template column<simd::Vec>(w, u + s, LanesWithin::of(s, -k.reach(w), n + k.reach(w)));
}

// Host: the lanes `lanes` of the vector at u, v (a run's end) from the windows, loading and storing
// only those lanes. Always inlined: a call would keep the windows in memory for the whole run.
template <core::Integrator S, class K, int N>
KOKKOS_FORCEINLINE_FUNCTION void end_vector(const K& k, const double* u, double* v, const Windows<N>& win, LanesWithin lanes,
                                            double coeff) {
  using Vec = simd::Vec;
  const Vec acc = k.template acc<Vec>(Window<N, LanesWithin>{u, win, lanes});
  const Vec old = S == core::Integrator::kLeapfrog ? lanes.load(v) : acc;
  simd::store_lanes(v, scheme_step<S, Vec>(lanes.load(u), old, acc, coeff), lanes.from, lanes.to);
}

// Host: the cells [p, p + n) of one line, in x order, in vectors on aligned output addresses. Along
// the line a window of each windowed column slides: the column's sums for the vectors before, at and
// after the current one, so that a column is summed once per x position. The specialized kernels
// start at the aligned vector holding cell 0 and end at the one holding cell n - 1; those two load
// and store only their lanes inside the run. The generic kernel runs whole vectors (the middle) and
// the cells before and after them from one unaligned vector at each end (columns summed inline),
// stored lane-masked. Window vectors reaching past the run hold only the lanes within the kernel's
// reach (the others are 0 and unused), so nothing is read outside [p - reach, p + n + reach) along x.
// Runs shorter than a vector go cell by cell. `lead`: prefetch distance in doubles (0: none).
template <core::Integrator S, class K>
void host_run(const K& kernel, const double* u, double* v, long p, long n, double coeff, long lead) {
  const K k = kernel;  // a local copy: its strides and weights cannot alias the output
  using Vec = simd::Vec;
  constexpr long W = Vec::kWidth;
  const double* uq = u + p;
  double* vq = v + p;
  const auto inline_cell = [&](auto lanes, long i) {
    using V = decltype(lanes);
    const V acc = k.template acc<V>(Inline<V, K>{k, uq + i});
    const V old = S == core::Integrator::kLeapfrog ? Lanes<V>::load(vq + i) : acc;
    return scheme_step<S, V>(Lanes<V>::load(uq + i), old, acc, coeff);
  };
  if (n < W) {
    for (long i = 0; i < n; ++i) vq[i] = inline_cell(0.0, i);
    return;
  }
  // Column w over the vector at x = s: whole vectors inside the run, else only the lanes within reach.
  const auto column = [&](int w, long s) {
    if (s >= 0 && s + W <= n) return k.template column<Vec>(w, uq + s);
    return window_near_end(k, w, uq, s, n);
  };
  const auto store = [&](long i, Vec acc) {
    const Vec old = S == core::Integrator::kLeapfrog ? simd::load(vq + i) : acc;
    simd::store(vq + i, scheme_step<S, Vec>(simd::load(uq + i), old, acc, coeff));
  };
  const long a0 = simd::to_alignment(vq), a1 = a0 + (n - a0) / W * W;
  // The cells before a0 and from a1 on: one unaligned vector each, columns summed inline, for the
  // generic kernel and the stars (which have no column sums to share; measured faster so than through
  // masked loads); the boxes' windows slide through aligned vectors that hold them.
  constexpr bool kInlineEnds = std::is_same_v<K, GenericKernel> || K::kWindows == 0;
  if (kInlineEnds && a0 > 0) simd::store_lanes(vq, inline_cell(Vec{}, 0), 0, static_cast<int>(a0));
  if constexpr (std::is_same_v<K, GenericKernel>) {
    // Blocks of 4, 2, 1 vectors; the windows' last two vectors carry over to the next block.
    constexpr int B = 4;
    const GenericMiddle middle{k, uq};
    Vec C[kMaxWindows][B + 2];
    for (int w = 0; w < k.windows(); ++w) {
      C[w][0] = column(w, a0 - W);
      C[w][1] = column(w, a0);
    }
    const auto run_block = [&](auto size, long i) {
      constexpr int b = decltype(size)::value;
      for (int v = 0; v < b; ++v)
        if (lead) simd::prefetch(uq + i + v * W + lead);
      for (int w = 0; w < k.windows(); ++w) {
        if (i + (b + 1) * W <= n) {  // C[w][2 ..] = the sums for the vectors at i + W, ..., i + b W
          Vec x[b];
          middle.sum_column<b>(x, k.window_column[w], i + W);
          for (int v = 0; v < b; ++v) C[w][v + 2] = x[v];
        } else {
          for (int v = 2; v < b + 2; ++v) C[w][v] = column(w, i + (v - 1) * W);
        }
      }
      Vec acc[b] = {};
      middle.block<b>(i, acc, C);
      for (int v = 0; v < b; ++v) store(i + v * W, acc[v]);
      for (int w = 0; w < k.windows(); ++w) {
        C[w][0] = C[w][b];
        C[w][1] = C[w][b + 1];
      }
    };
    long i = a0;
    for (; i + B * W <= a1; i += B * W) run_block(std::integral_constant<int, B>{}, i);
    if (i + 2 * W <= a1) {
      run_block(std::integral_constant<int, 2>{}, i);
      i += 2 * W;
    }
    if (i < a1) run_block(std::integral_constant<int, 1>{}, i);
  } else {
    // The window count and indices are compile-time constants, so that the windows live in registers.
    constexpr int kSlots = K::kWindows > 0 ? K::kWindows : 1;
    Windows<kSlots> win;
    const auto each_window = [&](auto&& f) { static_for<K::kWindows>(f); };
    // Near the ends the window vectors hold the lanes within reach (masked loads, also where all lanes
    // are). The helpers here are functions that are always inlined, not lambdas: a call would keep the
    // windows in memory for the whole run.
    long i = !kInlineEnds && a0 > 0 ? a0 - W : a0;
    each_window([&](auto w) {
      win.prev[w] = window_near_end(k, w, uq, i - W, n);
      win.cur[w] = window_near_end(k, w, uq, i, n);
    });
    if (!kInlineEnds && a0 > 0) {  // the vector holding cell 0
      each_window([&](auto w) { win.next[w] = window_near_end(k, w, uq, a0, n); });
      end_vector<S>(k, uq + i, vq + i, win, LanesWithin::of(i, 0, n), coeff);
      win.template shift<K::kWindows>();
      i = a0;
    }
    for (; i + W < a1; i += W) {  // whole vectors but the last: the next one lies inside the run
      if (lead) simd::prefetch(uq + i + lead);
      each_window([&](auto w) { win.next[w] = k.template column<Vec>(w, uq + i + W); });
      store(i, k.template acc<Vec>(Window<kSlots>{uq + i, win}));
      win.template shift<K::kWindows>();
    }
    if (i < a1) {  // the last whole vector
      each_window([&](auto w) { win.next[w] = window_near_end(k, w, uq, a1, n); });
      store(i, k.template acc<Vec>(Window<kSlots>{uq + i, win}));
      win.template shift<K::kWindows>();
    }
    if (!kInlineEnds && a1 < n) {  // the vector holding cell n - 1
      each_window([&](auto w) { win.next[w] = window_near_end(k, w, uq, a1 + W, n); });
      end_vector<S>(k, uq + a1, vq + a1, win, LanesWithin::of(a1, 0, n), coeff);
    }
  }
  // After the middle: leapfrog's old values of the stored lanes are still untouched.
  if (kInlineEnds && a1 < n)
    simd::store_lanes(vq + n - W, inline_cell(Vec{}, n - W), static_cast<int>(a1 - (n - W)), static_cast<int>(W));
}

}  // namespace cartex::kernels::detail
