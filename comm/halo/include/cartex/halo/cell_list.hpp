#pragma once
// An ordered list of view cells (linear indices into a field's view), stored as strided runs. Halo
// blocks are boxes in a LayoutRight view, so their cells, listed in z, y, x order, are rows of equal
// length at a constant pitch: a face in z is one contiguous run, a face in x of depth d one run of
// `count` rows per plane. A list costs 32 bytes per strided run instead of 8 per cell (issue 40:
// the per-cell lists were a third of a k = 4 run's memory).
//
//   cells:  40 41 42  50 51 52  60 61 62  90 91   (rows of 3 at pitch 10, then a row of 2)
//   runs:   {first 40, length 3, count 3, stride 10}  {first 90, length 2, count 1}
//
// Cells are appended one at a time (or run by run) in list order; a row grows while cells are
// consecutive, and a closed row joins the last strided run when it has the run's length and starts
// where the run's next row would.
#include <cstddef>
#include <iterator>
#include <vector>

namespace cartex::halo {

// `count` rows of `length` consecutive cells, row r starting at first + r * stride.
struct StridedRun {
  long first = 0;
  long length = 0;
  long count = 1;
  long stride = 0;
};

class CellList {
 public:
  class const_iterator;

  CellList() = default;
  // The cells of `cells`, in order (tests and small lists).
  explicit CellList(const std::vector<long>& cells);

  void push_back(long cell) { push_run(cell, 1); }
  // Appends `length` consecutive cells from `first` on.
  void push_run(long first, long length);
  // Appends every cell of `other`, in order.
  void append(const CellList& other);
  void clear();

  long size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Strided runs held (the memory a list costs is 32 bytes each).
  std::size_t runs() const;

  // Calls f(first, length) for every row of consecutive cells, in list order.
  template <class F>
  void for_each_row(F&& f) const {
    for (const StridedRun& r : runs_)
      for (long i = 0; i < r.count; ++i) f(r.first + i * r.stride, r.length);
    if (open_length_ > 0) f(open_first_, open_length_);
  }
  // Calls f(cell) for every cell, in list order.
  template <class F>
  void for_each(F&& f) const {
    for_each_row([&](long first, long length) {
      for (long c = 0; c < length; ++c) f(first + c);
    });
  }
  // Every cell, in order.
  std::vector<long> cells() const;

  const_iterator begin() const;
  const_iterator end() const;

  friend bool operator==(const CellList& a, const CellList& b) { return a.cells() == b.cells(); }

 private:
  // Moves the open row into runs_.
  void close_row();
  // True if closing the open row would add it to the last strided run.
  bool open_row_joins_last() const;

  std::vector<StridedRun> runs_;  // closed rows
  long open_first_ = 0, open_length_ = 0;  // the row still growing (length 0: none)
  long size_ = 0;
};

// Walks the cells of a CellList in order (a forward iterator over longs).
class CellList::const_iterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = long;
  using difference_type = std::ptrdiff_t;
  using pointer = const long*;
  using reference = long;

  const_iterator() = default;
  long operator*() const { return row_first() + col_; }
  const_iterator& operator++();
  const_iterator operator++(int) {
    const_iterator old = *this;
    ++*this;
    return old;
  }
  friend bool operator==(const const_iterator& a, const const_iterator& b) {
    return a.list_ == b.list_ && a.run_ == b.run_ && a.row_ == b.row_ && a.col_ == b.col_;
  }
  friend bool operator!=(const const_iterator& a, const const_iterator& b) { return !(a == b); }

 private:
  friend class CellList;
  const_iterator(const CellList* list, std::size_t run) : list_(list), run_(run) {}
  // The run at index run_: a closed one, or the open row past them.
  StridedRun current() const;
  long row_first() const {
    const StridedRun r = current();
    return r.first + row_ * r.stride;
  }

  const CellList* list_ = nullptr;
  std::size_t run_ = 0;
  long row_ = 0, col_ = 0;
};

}  // namespace cartex::halo
