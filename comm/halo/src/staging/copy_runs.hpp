#pragma once
// Internal: a copy between two index spaces as runs. Halo blocks are boxes, so consecutive cells of a
// list are mostly consecutive in the field too (runs along x, whole planes for a face of a full-width
// block): storing (first a, first b, length) per run instead of two indices per cell cuts the index
// traffic of a pack, unpack or self copy from 16 B per 8 B cell to a few bytes per run.
//
//   cells   i:  0  1  2  3  4  5  6 ...
//   a(i):      40 41 42 43 80 81 82      runs: (a 40, b 0, 4)  (a 80, b 4, 3)
//   b(i):       0  1  2  3  4  5  6      (a run ends where a or b does not advance by one,
//                                          or at 2048 cells, so that threads share a long one)
#include <Kokkos_Core.hpp>

#include <vector>

namespace cartex::halo {

class CopyRuns {
 public:
  CopyRuns() = default;
  // Cell i goes between a[i] and b[i]; a and b of equal length (cartex::core::Error otherwise).
  CopyRuns(const std::vector<long>& a, const std::vector<long>& b);
  long cells() const { return cells_; }
  long runs() const { return static_cast<long>(length_.extent(0)); }
  // to[b(i)] = from[a(i)] for every cell (kernel `label`; no fence).
  void a_to_b(const char* label, const double* from, double* to) const;
  // to[a(i)] = from[b(i)] for every cell (kernel `label`; no fence).
  void b_to_a(const char* label, const double* from, double* to) const;

  // Copies every run from src (its starts `s`) to dst (starts `d`); public for CUDA's lambdas.
  void copy(const char* label, const double* src, const Kokkos::View<long*>& s, double* dst, const Kokkos::View<long*>& d) const;

 private:
  Kokkos::View<long*> a_, b_, length_;  // per run: its first a, first b, cells
  long cells_ = 0;
};

}  // namespace cartex::halo
