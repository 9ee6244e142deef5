#pragma once
// A persistent halo-exchange plan: built once from the halo pattern, called every exchange.
//
//   geometry = HaloGeometry(decomp, stencil, k);        // where halo cells come from (all ranks)
//   pattern  = make_halo_pattern(geometry, rank);        // this rank's blocks (a value)
//   plan     = make_halo_plan("cart_combining", {pattern, comm, &geometry});   // backends.hpp
//   loop: plan->start(u);
//         for each chunk of work that does not read the halo: work; plan->progress();
//         plan->finish(u);
//
// Many fields, one exchange (issue 37): a plan built with PlanInputs::fields = N exchanges N fields of
// its layout together, one message per neighbour and schedule round for the whole set
// (docs/backends.md says how each backend combines them):
//
//   plan = make_halo_plan("p2p", {pattern, comm, &geometry, gpu_aware_mpi, 3});
//   loop: plan->start({&u, &v, &w}); ... plan->finish({&u, &v, &w});
//
// The one-field calls (start(u), finish(u), exchange(u)) are the set of one field, for a plan of
// N = 1. A set of the wrong size, with a field of another layout, a null or a repeated field is
// refused (cartex::core::Error), at start and at finish.
//
// progress() never blocks: it tests the messages in flight and, when a phase is complete, unpacks
// it and posts the next one, so a multi-phase schedule advances while the caller computes (MPI
// libraries such as Open MPI move large messages only inside MPI calls). done() says that the
// exchange is complete before finish; finish() is progress until done, blocking.
//
// Where the work happens (the "overlaps" column of backends()):
//   start posts, progress completes  p2p, p2p_persistent, mpi_neighbor_alltoallw,
//                                    mpi_neighbor_alltoallw_init (one phase);
//                                    cart_forwarding (one phase per dimension; a phase packs
//                                    what the previous one unpacked); cart_direct,
//                                    cart_combining, cart_combining_packed (comm/cart's plan
//                                    run phase by phase: CX_Cart_plan_start / _test)
//   start does it all (blocking)     graph_combining (comm/graph's plan has no non-blocking run)
//   auto                             as the backend it chose
// p2p and p2p_persistent copy the blocks a rank sends itself inside start (field to field, no MPI):
// self_complete_at_start(); and they pack every block they send inside start, so the caller may
// overwrite the block's cells while the messages are in flight: block_copied_at_start(). The others
// read the field after start (MPI datatypes over the field, later phases packed in progress).
// Every plan refuses a second start before finish, and finish without start (cartex::core::Error);
// progress() and done() on an idle or complete plan change nothing.
#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "cartex/core/field.hpp"

namespace cartex::halo {

// The fields one exchange moves: a small value naming them (it owns none). Any field converts to the
// set of itself, so plan->start(u) is the exchange of one field. Up to kInline fields are held in the
// value itself, so making, copying and checking a set allocates nothing (the plans keep the started
// set until finish; an exchange of a few fields costs microseconds, issue 37).
class FieldSet {
 public:
  static constexpr std::size_t kInline = 8;
  FieldSet() = default;  // the empty set
  FieldSet(core::Field& f) : size_(1) { inline_[0] = &f; }  // NOLINT(google-explicit-constructor): the one-field set
  FieldSet(std::initializer_list<core::Field*> fields) { assign(fields.begin(), fields.size()); }
  explicit FieldSet(const std::vector<core::Field*>& fields) { assign(fields.data(), fields.size()); }

  // Appends f: the first kInline fields stay inline, a set beyond them moves to the heap.
  void add(core::Field& f) {
    if (size_ < kInline) {
      inline_[size_] = &f;
    } else {
      if (size_ == kInline) heap_.assign(inline_.begin(), inline_.end());
      heap_.push_back(&f);
    }
    ++size_;
  }

  std::size_t size() const { return size_; }
  core::Field& operator[](std::size_t q) const { return *data()[q]; }
  // The fields' pointers, in order.
  core::Field* const* begin() const { return data(); }
  core::Field* const* end() const { return data() + size_; }
  // Throws cartex::core::Error (naming `plan`) unless the set holds exactly `count` fields, none null,
  // none twice, each of `layout` with a view of its extents. Nothing is formatted unless it throws.
  void require(std::size_t count, const core::FieldLayout& layout, const char* plan) const;
  void require(std::size_t count, const core::FieldLayout& layout, const std::string& plan) const {
    require(count, layout, plan.c_str());
  }

 private:
  void assign(core::Field* const* p, std::size_t n) {
    size_ = n;
    if (n > kInline)
      heap_.assign(p, p + n);
    else
      for (std::size_t q = 0; q < n; ++q) inline_[q] = p[q];
  }
  core::Field* const* data() const { return size_ > kInline ? heap_.data() : inline_.data(); }

  std::array<core::Field*, kInline> inline_{};
  std::vector<core::Field*> heap_;  // more than kInline fields only
  std::size_t size_ = 0;
};

// What one exchange costs this rank: messages it sends, bytes it sends (counting a block once per
// hop it travels), and communication rounds (steps that must follow each other or, for the
// Cartesian schedules, the rounds C of ICPP'19). An exchange of N fields together sends the messages
// of one field in its rounds, with N times the bytes.
struct HaloStats {
  long messages = 0;
  long bytes = 0;
  int rounds = 0;
};

// Exchanges the halo of a set of fields (fields() of them) with one fixed layout.
class HaloPlan {
 public:
  virtual ~HaloPlan() = default;
  // Begins the exchange of the fields' halos (reads their cells next to the faces).
  virtual void start(const FieldSet& f) = 0;
  // Advances the started exchange without blocking (see above); harmless when idle or complete.
  virtual void progress() {}
  // True when nothing is in flight: the started exchange is complete (finish only ends it), or
  // none was started.
  virtual bool done() const = 0;
  // Completes the exchange (blocking): every halo cell of the pattern holds its owner's value, in
  // every field of the set.
  virtual void finish(const FieldSet& f) = 0;
  // The number of fields each exchange moves together (PlanInputs::fields).
  virtual int fields() const { return 1; }
  // True if the halo cells this rank sends itself (periodic dimensions of one process) hold their
  // values when start() returns: the caller may then sweep HaloPattern::remote_inner while the rest
  // is in flight.
  virtual bool self_complete_at_start() const { return false; }
  // True if start() has copied every cell this rank sends when it returns: until finish the exchange
  // writes halo cells only and reads none of the block, so the caller may write the block's cells
  // (a blocked pass of several steps while the exchange is in flight).
  virtual bool block_copied_at_start() const { return false; }
  // Asks the plan to copy every cell it sends inside start (true), so that block_copied_at_start()
  // holds, or lets it read them from the field until finish again (false): p2p's whole planes read
  // the field (staging/whole_planes.hpp), and an overlapped blocked pass wants the copy. Only while
  // no exchange is in flight. Plans that always copy, or never can, ignore it.
  virtual void copy_block_at_start(bool) {}
  // How many of the dimensions x, y the caller may fill the periodic ghosts of instead of the plan's
  // copy within the rank (a periodic dimension on one process), leaving them out of a start announced
  // by expect_filled_ghosts(): 0 none; 1 x, the x ghosts of the block's rows; 2 also y, the ghost
  // rows in y of the block's planes. p2p and p2p_persistent (staging/self_copy.hpp); 0 elsewhere.
  virtual int fillable_ghost_dims() const { return 0; }
  // The caller's word for the next start() only: the periodic ghosts of the first `dims` (1 or 2,
  // at most fillable_ghost_dims()) of x, y, in every field, hold their images already
  // (kernels::PeriodicGhosts::kX, kXY: written by the pass that computed the rows). Plans that
  // fill none ignore it.
  virtual void expect_filled_ghosts(int /*dims*/) {}
  // start + finish.
  void exchange(const FieldSet& f) {
    start(f);
    finish(f);
  }
  // Messages, bytes and rounds of one exchange (of all fields() fields) on this rank: the messages and
  // rounds of one field, fields() times its bytes.
  virtual HaloStats stats() const = 0;
  // The backend name ("p2p", ...; auto reports the backend it chose).
  virtual std::string backend() const = 0;
  // One line on how the plan was chosen or built (auto: the timings behind its choice).
  virtual std::string note() const { return {}; }
};

}  // namespace cartex::halo
