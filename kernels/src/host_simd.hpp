#pragma once
// The one place with CPU intrinsics: a short vector of doubles for the host line loops of the
// stencil kernels (stencil_kernels.hpp), and a prefetch hint.
//
//   AVX-512   8 lanes, _mm512_* (the -march=native build on this project's machine)
//   AVX       4 lanes, _mm256_*
//   otherwise 4 lanes of GCC/Clang vector extensions (any target), or 1 lane (other compilers)
//
// Every variant does the same IEEE double operations lane by lane (separate multiply and add, no
// fused multiply-add), so a lane computes exactly what the scalar code computes for that cell. Builds
// with a device backend (CUDA, HIP, SYCL) use the one-lane variant, callable everywhere, so that no
// host-only type reaches code the device compiler sees; their host line loops are not used anyway.
#include <Kokkos_Core.hpp>

// (CARTEX_SIMD_FORCE_SCALAR selects the one-lane variant anywhere, to test it.)
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL) || \
    defined(CARTEX_SIMD_FORCE_SCALAR)
#define CARTEX_SIMD_SCALAR 1
#elif defined(__AVX512F__)
#define CARTEX_SIMD_AVX512 1
#elif defined(__AVX__)
#define CARTEX_SIMD_AVX 1
#elif defined(__GNUC__)
#define CARTEX_SIMD_VECTOR_EXTENSION 1
#else
#define CARTEX_SIMD_SCALAR 1
#endif

#if defined(CARTEX_SIMD_AVX512) || defined(CARTEX_SIMD_AVX)
#include <immintrin.h>
#endif

// How functions on Vec are declared: callable on devices only in the one-lane variant.
#if defined(CARTEX_SIMD_SCALAR)
#define CARTEX_SIMD_FUNCTION KOKKOS_FORCEINLINE_FUNCTION
#else
#define CARTEX_SIMD_FUNCTION inline
#endif

#include <cstdint>
#include <cstring>

namespace cartex::kernels::simd {

// Each variant defines Vec (kWidth lanes) and
//   load(p), store(p, a)        kWidth doubles at p (any alignment)
//   load_lanes(p, from, to)     lanes [from, to) from p[from .. to), the others 0; reads nothing else
//   store_lanes(p, a, from, to) lanes [from, to) of a to p[from .. to) only
//   splat(x), a + b, a - b, a * b
//   shifted(prev, cur, next, s) the vector s lanes further along the concatenation prev|cur|next:
//                               lane l is cur[l + s] (from prev or next past the ends), |s| <= kWidth

#if defined(CARTEX_SIMD_AVX512)

struct Vec {
  static constexpr int kWidth = 8;
  __m512d x;
};
inline Vec load(const double* p) { return {_mm512_loadu_pd(p)}; }
inline void store(double* p, Vec a) { _mm512_storeu_pd(p, a.x); }
inline __mmask8 lane_mask(int from, int to) { return static_cast<__mmask8>(((1u << to) - 1u) & ~((1u << from) - 1u)); }
// Masked-off lanes are not accessed (no fault), so p may lie partly outside the field.
inline Vec load_lanes(const double* p, int from, int to) { return {_mm512_maskz_loadu_pd(lane_mask(from, to), p)}; }
inline void store_lanes(double* p, Vec a, int from, int to) { _mm512_mask_storeu_pd(p, lane_mask(from, to), a.x); }
inline Vec splat(double a) { return {_mm512_set1_pd(a)}; }
inline Vec operator+(Vec a, Vec b) { return {_mm512_add_pd(a.x, b.x)}; }
inline Vec operator-(Vec a, Vec b) { return {_mm512_sub_pd(a.x, b.x)}; }
inline Vec operator*(Vec a, Vec b) { return {_mm512_mul_pd(a.x, b.x)}; }

// valignq: lanes S .. S + 7 of lo|hi (the all-lanes mask form: GCC's plain form trips
// -Wmaybe-uninitialized inside its own header).
template <int S>
inline Vec align(Vec lo, Vec hi) {
  const __m512i a = _mm512_castpd_si512(hi.x), b = _mm512_castpd_si512(lo.x);
  return {_mm512_castsi512_pd(_mm512_mask_alignr_epi64(a, 0xFF, a, b, S))};
}
inline Vec shifted(Vec prev, Vec cur, Vec next, int s) {
  switch (s) {
    case -8: return prev;
    case -7: return align<1>(prev, cur);
    case -6: return align<2>(prev, cur);
    case -5: return align<3>(prev, cur);
    case -4: return align<4>(prev, cur);
    case -3: return align<5>(prev, cur);
    case -2: return align<6>(prev, cur);
    case -1: return align<7>(prev, cur);
    case 0: return cur;
    case 1: return align<1>(cur, next);
    case 2: return align<2>(cur, next);
    case 3: return align<3>(cur, next);
    case 4: return align<4>(cur, next);
    case 5: return align<5>(cur, next);
    case 6: return align<6>(cur, next);
    case 7: return align<7>(cur, next);
    default: return next;
  }
}

#elif defined(CARTEX_SIMD_AVX)

struct Vec {
  static constexpr int kWidth = 4;
  __m256d x;
};
inline Vec load(const double* p) { return {_mm256_loadu_pd(p)}; }
inline void store(double* p, Vec a) { _mm256_storeu_pd(p, a.x); }
inline __m256i lane_mask(int from, int to) {
  const __m256i lane = _mm256_set_epi64x(3, 2, 1, 0);
  const __m256i from_v = _mm256_set1_epi64x(from), to_v = _mm256_set1_epi64x(to);
  // lane >= from and lane < to: not (from > lane) and (to > lane)
  return _mm256_andnot_si256(_mm256_cmpgt_epi64(from_v, lane), _mm256_cmpgt_epi64(to_v, lane));
}
// Masked-off lanes are not accessed (no fault), so p may lie partly outside the field.
inline Vec load_lanes(const double* p, int from, int to) { return {_mm256_maskload_pd(p, lane_mask(from, to))}; }
inline void store_lanes(double* p, Vec a, int from, int to) { _mm256_maskstore_pd(p, lane_mask(from, to), a.x); }
inline Vec splat(double a) { return {_mm256_set1_pd(a)}; }
inline Vec operator+(Vec a, Vec b) { return {_mm256_add_pd(a.x, b.x)}; }
inline Vec operator-(Vec a, Vec b) { return {_mm256_sub_pd(a.x, b.x)}; }
inline Vec operator*(Vec a, Vec b) { return {_mm256_mul_pd(a.x, b.x)}; }

// The upper half of lo and the lower half of hi: lanes 2 .. 5 of lo|hi. Zen 1 runs vperm2f128 as
// 8 micro-ops with a throughput of one per 3 cycles (Agner Fog's instruction tables), an extract and an
// insert of a 128-bit half as 3 single-cycle ones; elsewhere vperm2f128 is the one cheap shuffle.
inline __m256d middle(__m256d lo, __m256d hi) {
#if defined(__znver1__)
  return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm256_extractf128_pd(lo, 1)), _mm256_castpd256_pd128(hi), 1);
#else
  return _mm256_permute2f128_pd(lo, hi, 0x21);
#endif
}
inline Vec shifted(Vec prev, Vec cur, Vec next, int s) {
  switch (s) {
    case -4: return prev;
    case -3: return {_mm256_shuffle_pd(prev.x, middle(prev.x, cur.x), 0b0101)};
    case -2: return {middle(prev.x, cur.x)};
    case -1: return {_mm256_shuffle_pd(middle(prev.x, cur.x), cur.x, 0b0101)};
    case 0: return cur;
    case 1: return {_mm256_shuffle_pd(cur.x, middle(cur.x, next.x), 0b0101)};
    case 2: return {middle(cur.x, next.x)};
    case 3: return {_mm256_shuffle_pd(middle(cur.x, next.x), next.x, 0b0101)};
    default: return next;
  }
}

#elif defined(CARTEX_SIMD_VECTOR_EXTENSION)

struct Vec {
  static constexpr int kWidth = 4;
  typedef double Raw __attribute__((vector_size(4 * sizeof(double))));
  Raw x;
};
inline Vec load(const double* p) {
  Vec v;
  std::memcpy(&v.x, p, sizeof(v.x));
  return v;
}
inline void store(double* p, Vec a) { std::memcpy(p, &a.x, sizeof(a.x)); }
inline Vec load_lanes(const double* p, int from, int to) {
  double lanes[4] = {};
  for (int i = from; i < to; ++i) lanes[i] = p[i];
  Vec v;
  std::memcpy(&v.x, lanes, sizeof(v.x));
  return v;
}
inline void store_lanes(double* p, Vec a, int from, int to) {
  double lanes[4];
  std::memcpy(lanes, &a.x, sizeof(lanes));
  for (int i = from; i < to; ++i) p[i] = lanes[i];
}
inline Vec splat(double a) { return {Vec::Raw{a, a, a, a}}; }
inline Vec operator+(Vec a, Vec b) { return {a.x + b.x}; }
inline Vec operator-(Vec a, Vec b) { return {a.x - b.x}; }
inline Vec operator*(Vec a, Vec b) { return {a.x * b.x}; }
inline Vec shifted(Vec prev, Vec cur, Vec next, int s) {
  if (s <= -4) return prev;
  if (s >= 4) return next;
  double all[12];
  store(all, prev);
  store(all + 4, cur);
  store(all + 8, next);
  return load(all + 4 + s);
}

#else

struct Vec {
  static constexpr int kWidth = 1;
  double x;
};
CARTEX_SIMD_FUNCTION Vec load(const double* p) { return {*p}; }
CARTEX_SIMD_FUNCTION void store(double* p, Vec a) { *p = a.x; }
CARTEX_SIMD_FUNCTION Vec load_lanes(const double* p, int from, int to) { return {from < to ? *p : 0.0}; }
CARTEX_SIMD_FUNCTION void store_lanes(double* p, Vec a, int from, int to) {
  if (from < to) *p = a.x;
}
CARTEX_SIMD_FUNCTION Vec splat(double a) { return {a}; }
CARTEX_SIMD_FUNCTION Vec operator+(Vec a, Vec b) { return {a.x + b.x}; }
CARTEX_SIMD_FUNCTION Vec operator-(Vec a, Vec b) { return {a.x - b.x}; }
CARTEX_SIMD_FUNCTION Vec operator*(Vec a, Vec b) { return {a.x * b.x}; }
CARTEX_SIMD_FUNCTION Vec shifted(Vec prev, Vec cur, Vec next, int s) { return s < 0 ? prev : s > 0 ? next : cur; }

#endif

// Asks for the cache line holding p ahead of its use (a hint; no effect where unsupported).
CARTEX_SIMD_FUNCTION void prefetch(const double* p) {
#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  __builtin_prefetch(p, 0, 3);
#else
  (void)p;
#endif
}

// Doubles from p to the next kWidth-double boundary: 0 .. kWidth - 1.
inline long to_alignment(const double* p) {
  constexpr std::uintptr_t bytes = Vec::kWidth * sizeof(double);
  const std::uintptr_t mis = reinterpret_cast<std::uintptr_t>(p) % bytes;
  return mis == 0 ? 0 : static_cast<long>((bytes - mis) / sizeof(double));
}

}  // namespace cartex::kernels::simd
