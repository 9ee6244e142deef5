#pragma once
// Internal: the zero-copy plan on comm/cart's CX_Cart_alltoallw (ICPP'19 Listing 5) shared by the
// backends cart_direct (direct schedule, Listing 4) and cart_combining (message combining,
// Algorithm 1): one derived datatype per block over the field's own memory. A comm/cart plan is bound
// to its buffers, so there is one per field buffer. Combining routes block i through other processes,
// which must agree on its size (section 3.3); halo blocks differ between ranks (uneven blocks,
// boundaries), so each block is padded to the largest size of its index over all ranks, the padding
// living in scratch memory (staging/zero_copy.hpp draws its layout). N fields together: one comm/cart
// plan per tuple of field buffers, its block types MPI struct types spanning the fields
// (staging/zero_copy.hpp), so the schedule is one field's with N times the bytes; u / u_next double
// buffering binds two tuples.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cart_comm.hpp"
#include "cartex/halo/plan.hpp"
#include "staging/zero_copy.hpp"
#include "start_finish.hpp"

namespace cartex::halo {

// A CX_Cart_alltoallw exchange over the field's memory, with the direct or the combining schedule.
class CartZeroCopyPlan final : public HaloPlan {
 public:
  CartZeroCopyPlan(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm, const char* name, bool combining,
                   int fields);
  void start(const FieldSet& f) override;
  // comm/cart's plan advances its schedule phase by phase on each test.
  void progress() override;
  bool done() const override { return state_.done(); }
  void finish(const FieldSet& f) override;
  int fields() const override { return fields_; }
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return name_; }

 private:
  // A plan bound to one tuple of field buffers, with the datatypes and scratch it uses.
  struct Bound {
    std::vector<double> scratch;
    std::unique_ptr<ZeroCopyBlocks> blocks;
    std::unique_ptr<cart::Plan> plan;
  };
  // The plan bound to f's buffers (built on first use), after fencing the fields' last update.
  Bound& bind(const FieldSet& f);

  std::string name_;
  bool combining_;
  int fields_;
  HaloPattern pattern_;
  std::vector<long> slots_;  // uniform block sizes (combining only)
  cart::Neighborhood cart_;
  std::map<std::vector<const double*>, Bound> plans_;  // one per tuple of field buffers
  std::vector<const double*> bases_;                   // the started set's first elements (reused storage)
  cart::Plan* running_ = nullptr;   // the plan of the started exchange
  HaloStats stats_;
  StartFinish state_;
};

}  // namespace cartex::halo
