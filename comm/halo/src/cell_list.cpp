#include "cartex/halo/cell_list.hpp"

namespace cartex::halo {

CellList::CellList(const std::vector<long>& cells) {
  for (const long c : cells) push_back(c);
}

void CellList::push_run(long first, long length) {
  if (length <= 0) return;
  size_ += length;
  if (open_length_ > 0 && first == open_first_ + open_length_) {
    open_length_ += length;
    return;
  }
  close_row();
  open_first_ = first;
  open_length_ = length;
}

bool CellList::open_row_joins_last() const {
  if (open_length_ == 0 || runs_.empty()) return false;
  const StridedRun& last = runs_.back();
  if (last.length != open_length_) return false;
  return last.count == 1 ? open_first_ > last.first : open_first_ == last.first + last.count * last.stride;
}

std::size_t CellList::runs() const { return runs_.size() + (open_length_ > 0 && !open_row_joins_last()); }

void CellList::close_row() {
  if (open_length_ == 0) return;
  if (open_row_joins_last()) {
    StridedRun& last = runs_.back();
    if (last.count == 1) last.stride = open_first_ - last.first;
    ++last.count;
  } else {
    runs_.push_back({open_first_, open_length_, 1, 0});
  }
  open_length_ = 0;
}

void CellList::append(const CellList& other) {
  other.for_each_row([&](long first, long length) { push_run(first, length); });
}

void CellList::clear() {
  runs_.clear();
  open_length_ = 0;
  size_ = 0;
}

std::vector<long> CellList::cells() const {
  std::vector<long> out;
  out.reserve(static_cast<std::size_t>(size_));
  for_each([&](long c) { out.push_back(c); });
  return out;
}

CellList::const_iterator CellList::begin() const { return const_iterator(this, 0); }

// The open row, if any, is walked as the run past the closed ones.
CellList::const_iterator CellList::end() const { return const_iterator(this, runs_.size() + (open_length_ > 0)); }

StridedRun CellList::const_iterator::current() const {
  if (run_ < list_->runs_.size()) return list_->runs_[run_];
  return {list_->open_first_, list_->open_length_, 1, 0};
}

CellList::const_iterator& CellList::const_iterator::operator++() {
  const StridedRun r = current();
  if (++col_ < r.length) return *this;
  col_ = 0;
  if (++row_ < r.count) return *this;
  row_ = 0;
  ++run_;
  return *this;
}

}  // namespace cartex::halo
