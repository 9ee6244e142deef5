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
//
// Rows of equal length whose starts advance by constant steps on both sides fold into one 2D run of
// `count` rows (up to 2048 cells, for the same reason): the face of a halo in x, four cells a row, is
// a few hundred runs instead of one per row, which cost the self copies of periodic dimensions their
// loop overhead (issue 40):
//
//   rows (a 10, b 0, 4) (a 30, b 4, 4) (a 50, b 8, 4)   ->   (a 10, b 0, length 4, count 3, steps 20 / 4)
//
// Many fields (issue 37): a is an index into each field of a set, b a position in one buffer where
// field q's copy of cell i lies at b(i) + q * stride(i) (the buffer's field stride, the slot length of
// the cell's block: pack_list.hpp); a run also ends where the stride changes. One kernel moves every
// run of up to FieldPointers::kChunk fields: on a device a team per run and field; on the host a
// range over the runs of one field after another, so memory is swept once per field (copy_runs.cpp
// says why).
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "cartex/halo/plan.hpp"

namespace cartex::halo {

// The first pointers of up to kChunk fields (or one buffer repeated), captured by value by a kernel.
struct FieldPointers {
  static constexpr int kChunk = 8;
  double* p[kChunk] = {};
  int n = 0;
};

class CopyRuns {
 public:
  CopyRuns() = default;
  // Cell i goes between a[i] and b[i]; `stride` (default: all 0) the field stride of b[i]; the lists
  // of equal length (cartex::core::Error otherwise).
  CopyRuns(const std::vector<long>& a, const std::vector<long>& b, const std::vector<long>& stride = {});

  // Runs made cell by cell, without holding the cell lists whole: add(a, b, stride) in list order.
  // With `plane` (cells per view plane of the last dimension, 0: none) no run spans two planes of b
  // and the runs are ordered by b's plane (stable): a copy within a field then sweeps memory once,
  // plane by plane, instead of once per block (a periodic dimension's self copy reads and writes
  // the same cache lines at both ends of a row: x's two faces, issue 40).
  class Builder {
   public:
    explicit Builder(long plane = 0) : plane_(plane) {}
    void add(long a, long b, long stride = 0);
    CopyRuns build() const;

   private:
    friend class CopyRuns;
    // Ends the open row: folds it into the last 2D run or starts one.
    void close_row();

    std::vector<long> first_a_, first_b_, length_, stride_, count_, step_a_, step_b_;  // closed 2D runs
    long open_a_ = 0, open_b_ = 0, open_length_ = 0, open_stride_ = 0;                 // the row still growing
    long cells_ = 0;
    long plane_ = 0;
  };

  long cells() const { return cells_; }
  long runs() const { return static_cast<long>(length_.extent(0)); }
  // to[b(i)] = from[a(i)] for every cell (kernel `label`, a string Kokkos takes: the plans keep theirs,
  // so that a launch makes none; no fence).
  void a_to_b(const std::string& label, const double* from, double* to) const;
  // to[a(i)] = from[b(i)] for every cell (kernel `label`; no fence).
  void b_to_a(const std::string& label, const double* from, double* to) const;
  // Fields to one buffer: buf[b(i) + q stride(i)] = fields[q][a(i)] (no fence).
  void fields_to_buffer(const std::string& label, const FieldSet& fields, double* buf) const;
  // One buffer to fields: fields[q][a(i)] = buf[b(i) + q stride(i)] (no fence).
  void buffer_to_fields(const std::string& label, const double* buf, const FieldSet& fields) const;
  // Within each field: fields[q][b(i)] = fields[q][a(i)] (no fence).
  void within_fields(const std::string& label, const FieldSet& fields) const;

  // One side of a copy: per field its pointer, per run its start and row step, and whether the field
  // stride applies.
  struct End {
    FieldPointers ptr;
    Kokkos::View<long*> start, step;
    bool strided = false;
  };
  // Copies every run of fields q0 .. q0 + src.ptr.n - 1 from src to dst; public for CUDA's lambdas.
  void copy(const std::string& label, const End& src, const End& dst, long q0) const;

 private:
  // Runs the copy in chunks of kChunk fields; pointer(q) gives field q's pointer on each side.
  enum class Side { kA, kB };
  template <class Src, class Dst>
  void chunks(const std::string& label, long n, Src&& src, Side from, bool src_strided, Dst&& dst, Side to, bool dst_strided) const;

  explicit CopyRuns(const Builder& b);

  // Per 2D run: its first a and b, cells a row, b's field stride, rows, and each side's row step.
  Kokkos::View<long*> a_, b_, length_, stride_, count_, step_a_, step_b_;
  long cells_ = 0;
};

}  // namespace cartex::halo
