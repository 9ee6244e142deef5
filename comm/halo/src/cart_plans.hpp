#pragma once
// Backends on comm/cart's Cartesian collectives (ICPP'19). The halo neighborhood is isomorphic (every
// rank lists the same offsets), so CX_Cart_neighborhood_create takes it as it is.
//   cart_direct, cart_combining: CX_Cart_alltoallw plans over the field's own memory with one derived
//     datatype per block (zero-copy, Listing 5); the direct schedule (Listing 4) or the message-
//     combining one (Algorithm 1). A plan is bound to its buffers, so there is one per field buffer.
//     Combining routes block i through other processes, which must agree on its size (section 3.3);
//     halo blocks differ between ranks (uneven blocks, boundaries), so each block is padded to the
//     largest size of its index over all ranks, the padding living in scratch memory.
//   cart_combining_packed: the combining schedule run by a CX_Cart_alltoallv plan on two contiguous
//     buffers that Kokkos kernels pack and unpack (host mirrors for MPI): works with device memory.
#include <mpi.h>

#include <cartex/cart/cx_cart.h>

#include <map>

#include "cartex/core/kokkos_compat.hpp"
#include "cartex/halo/halo_plan.hpp"
#include "packing.hpp"
#include "zero_copy_blocks.hpp"

namespace cartex::detail {

// Owns a Cartesian neighborhood communicator of comm/cart.
class CartComm {
 public:
  CartComm(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm, const char* algorithm, const char* execution);
  ~CartComm();
  CartComm(const CartComm&) = delete;
  CartComm& operator=(const CartComm&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Owns a comm/cart persistent plan.
class CartPlanHandle {
 public:
  explicit CartPlanHandle(CX_Cart_plan p) : p_(p) {}
  ~CartPlanHandle() {
    if (p_) CX_Cart_plan_free(&p_);
  }
  CartPlanHandle(const CartPlanHandle&) = delete;
  CartPlanHandle& operator=(const CartPlanHandle&) = delete;
  CX_Cart_plan get() const { return p_; }

 private:
  CX_Cart_plan p_;
};

// Throws cartex::Error naming `call` when a comm/cart call failed.
void check_cart(int code, const char* call);

// cart_direct / cart_combining.
class CartZeroCopyPlan final : public HaloPlan {
 public:
  CartZeroCopyPlan(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm, bool combining);
  void start(Field& f) override;
  void finish(Field&) override {}
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return combining_ ? "cart_combining" : "cart_direct"; }

 private:
  // A plan bound to one field buffer, with the datatypes and scratch it uses.
  struct Bound {
    std::vector<double> scratch;
    std::unique_ptr<ZeroCopyBlocks> blocks;
    std::unique_ptr<CartPlanHandle> plan;
  };
  // The plan bound to f's buffer (built on first use), after fencing f's last update.
  Bound& bind(Field& f);

  bool combining_;
  HaloPattern pattern_;
  std::vector<long> slots_;  // uniform block sizes (combining only)
  CartComm cart_;
  std::map<double*, Bound> plans_;  // one per field buffer
  HaloStats stats_;
};

// cart_combining_packed.
class CartPackedPlan final : public HaloPlan {
 public:
  CartPackedPlan(const HaloGeometry& geo, const HaloPattern& p, MPI_Comm comm);
  void start(Field& f) override;
  void finish(Field& f) override;
  HaloStats stats() const override { return stats_; }
  std::string backend() const override { return "cart_combining_packed"; }

 private:
  HaloPattern pattern_;
  std::vector<long> slots_;
  PackList send_list_, recv_list_;
  Kokkos::View<double*> send_buf_, recv_buf_;
  host_mirror_t<Kokkos::View<double*>> send_host_, recv_host_;
  CartComm cart_;
  std::unique_ptr<CartPlanHandle> plan_;
  HaloStats stats_;
};

}  // namespace cartex::detail
