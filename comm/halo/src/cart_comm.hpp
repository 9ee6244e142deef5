#pragma once
// Internal: comm/cart's Cartesian neighborhood communicator and persistent plans, owned with RAII,
// for the backends on comm/cart's collectives (ICPP'19). The halo neighborhood is isomorphic (every
// rank lists the same offsets), so CX_Cart_neighborhood_create takes it as it is.
#include <mpi.h>

#include <cartex/cart/cx_cart.h>

#include "cartex/halo/geometry.hpp"
#include "cartex/halo/pattern.hpp"

namespace cartex::halo {

// Owns a Cartesian neighborhood communicator of comm/cart over the pattern's offsets.
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

}  // namespace cartex::halo
