// The C collectives: argument checks and layouts of the six allgather/alltoall variants (blocking
// and _init), plan execution, and the two neighborhood reductions.
#include <optional>
#include <vector>

#include "c_support.hpp"
#include "cartex/cart/cx_cart.h"

using cartex::cart::Collective;
using cartex::cart::Error;
namespace detail = cartex::cart::detail;
using detail::OpKind;

namespace {

using Err = std::optional<Error>;

int alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
             MPI_Comm comm, CX_Cart_plan* plan) {
  return detail::collective(
      comm, OpKind::alltoall, Collective::alltoall, plan,
      [&](int, Err& e) {
        detail::check_count(scount, "sendcount", e);
        detail::check_count(rcount, "recvcount", e);
        detail::check_type(stype, "sendtype", e);
        detail::check_type(rtype, "recvtype", e);
      },
      [&](int t) { return detail::alltoall_layout(t, sbuf, scount, stype, rbuf, rcount, rtype); });
}

int alltoallv(const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype, void* rbuf,
              const int* rcounts, const int* rdispls, MPI_Datatype rtype, MPI_Comm comm, CX_Cart_plan* plan) {
  return detail::collective(
      comm, OpKind::alltoallv, Collective::alltoall, plan,
      [&](int t, Err& e) {
        detail::check_counts(t, scounts, "sendcounts", e);
        detail::check_counts(t, rcounts, "recvcounts", e);
        detail::check_ptr(t, sdispls, "sdispls", e);
        detail::check_ptr(t, rdispls, "rdispls", e);
        detail::check_type(stype, "sendtype", e);
        detail::check_type(rtype, "recvtype", e);
      },
      [&](int t) { return detail::alltoallv_layout(t, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype); });
}

int alltoallw(const void* sbuf, const int* scounts, const MPI_Aint* sdispls, const MPI_Datatype* stypes, void* rbuf,
              const int* rcounts, const MPI_Aint* rdispls, const MPI_Datatype* rtypes, MPI_Comm comm,
              CX_Cart_plan* plan) {
  return detail::collective(
      comm, OpKind::alltoallw, Collective::alltoall, plan,
      [&](int t, Err& e) {
        detail::check_counts(t, scounts, "sendcounts", e);
        detail::check_counts(t, rcounts, "recvcounts", e);
        detail::check_ptr(t, sdispls, "sdispls", e);
        detail::check_ptr(t, rdispls, "rdispls", e);
        detail::check_types(t, stypes, "sendtypes", e);
        detail::check_types(t, rtypes, "recvtypes", e);
      },
      [&](int t) {
        return detail::alltoallw_layout(t, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes);
      });
}

int allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
              MPI_Comm comm, CX_Cart_plan* plan) {
  return detail::collective(
      comm, OpKind::allgather, Collective::allgather, plan,
      [&](int, Err& e) {
        detail::check_count(scount, "sendcount", e);
        detail::check_count(rcount, "recvcount", e);
        detail::check_type(stype, "sendtype", e);
        detail::check_type(rtype, "recvtype", e);
      },
      [&](int t) { return detail::allgather_layout(t, sbuf, scount, stype, rbuf, rcount, rtype); });
}

int allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
               MPI_Datatype rtype, MPI_Comm comm, CX_Cart_plan* plan) {
  return detail::collective(
      comm, OpKind::allgatherv, Collective::allgather, plan,
      [&](int t, Err& e) {
        detail::check_count(scount, "sendcount", e);
        detail::check_counts(t, rcounts, "recvcounts", e);
        detail::check_ptr(t, displs, "displs", e);
        detail::check_type(stype, "sendtype", e);
        detail::check_type(rtype, "recvtype", e);
      },
      [&](int t) { return detail::allgatherv_layout(t, sbuf, scount, stype, rbuf, rcounts, displs, rtype); });
}

int allgatherw(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts,
               const MPI_Aint* displs, const MPI_Datatype* rtypes, MPI_Comm comm, CX_Cart_plan* plan) {
  return detail::collective(
      comm, OpKind::allgatherw, Collective::allgather, plan,
      [&](int t, Err& e) {
        detail::check_count(scount, "sendcount", e);
        detail::check_counts(t, rcounts, "recvcounts", e);
        detail::check_ptr(t, displs, "displs", e);
        detail::check_type(stype, "sendtype", e);
        detail::check_types(t, rtypes, "recvtypes", e);
      },
      [&](int t) { return detail::allgatherw_layout(t, sbuf, scount, stype, rbuf, rcounts, displs, rtypes); });
}

// Common path of the reductions: own[i] is the contribution to target i.
int reduce(MPI_Comm comm, OpKind kind, const std::function<void(int, Err&)>& validate,
           const std::function<std::vector<detail::BufferRegion>(int)>& own, void* rbuf, int count, MPI_Datatype type,
           MPI_Op op) {
  return detail::guarded([&] {
    auto state = detail::state_of(comm);
    Err e;
    validate(state->offsets().t(), e);
    detail::check_count(count, "count", e);
    detail::check_type(type, "datatype", e);
    if (!e && op == MPI_OP_NULL) e = Error(MPI_ERR_OP, "op is MPI_OP_NULL");
    if (!e) {
      int commute = 0;
      cartex::cart::check_mpi(MPI_Op_commutative(op, &commute), "MPI_Op_commutative");
      if (!commute) e = Error(MPI_ERR_OP, "neighborhood reductions need a commutative op");
    }
    detail::agree(*state, e ? &*e : nullptr);
    state->reduce(kind, own(state->offsets().t()), rbuf, count, type, op);
  });
}

}  // namespace

extern "C" {

int CX_Cart_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, cartcomm, nullptr);
}

int CX_Cart_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                      void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                      MPI_Comm cartcomm) {
  return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, cartcomm, nullptr);
}

int CX_Cart_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                      const MPI_Datatype recvtypes[], MPI_Comm cartcomm) {
  return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, cartcomm,
                   nullptr);
}

int CX_Cart_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, cartcomm, nullptr);
}

int CX_Cart_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, cartcomm, nullptr);
}

int CX_Cart_allgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                       MPI_Comm cartcomm) {
  return allgatherw(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtypes, cartcomm, nullptr);
}

int CX_Cart_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm cartcomm, CX_Cart_plan* plan) {
  if (plan == nullptr) return MPI_ERR_ARG;
  return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, cartcomm, plan);
}

int CX_Cart_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm cartcomm, CX_Cart_plan* plan) {
  if (plan == nullptr) return MPI_ERR_ARG;
  return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, cartcomm, plan);
}

int CX_Cart_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm cartcomm,
                           CX_Cart_plan* plan) {
  if (plan == nullptr) return MPI_ERR_ARG;
  return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, cartcomm, plan);
}

int CX_Cart_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm cartcomm, CX_Cart_plan* plan) {
  if (plan == nullptr) return MPI_ERR_ARG;
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, cartcomm, plan);
}

int CX_Cart_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm,
                            CX_Cart_plan* plan) {
  if (plan == nullptr) return MPI_ERR_ARG;
  return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, cartcomm, plan);
}

int CX_Cart_allgatherw_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                            MPI_Comm cartcomm, CX_Cart_plan* plan) {
  if (plan == nullptr) return MPI_ERR_ARG;
  return allgatherw(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtypes, cartcomm, plan);
}

int CX_Cart_plan_execute(CX_Cart_plan plan) {
  return detail::guarded([&] {
    if (plan == nullptr) throw Error(MPI_ERR_REQUEST, "plan is NULL");
    plan->impl->execute();
  });
}

int CX_Cart_plan_start(CX_Cart_plan plan) {
  return detail::guarded([&] {
    if (plan == nullptr) throw Error(MPI_ERR_REQUEST, "plan is NULL");
    plan->impl->start();
  });
}

int CX_Cart_plan_test(CX_Cart_plan plan, int* flag) {
  return detail::guarded([&] {
    if (plan == nullptr) throw Error(MPI_ERR_REQUEST, "plan is NULL");
    if (flag == nullptr) throw Error(MPI_ERR_ARG, "flag is NULL");
    *flag = plan->impl->test() ? 1 : 0;
  });
}

int CX_Cart_plan_wait(CX_Cart_plan plan) {
  return detail::guarded([&] {
    if (plan == nullptr) throw Error(MPI_ERR_REQUEST, "plan is NULL");
    plan->impl->wait();
  });
}

int CX_Cart_plan_free(CX_Cart_plan* plan) {
  return detail::guarded([&] {
    if (plan == nullptr) throw Error(MPI_ERR_ARG, "plan is NULL");
    delete *plan;
    *plan = nullptr;
  });
}

int CX_Cart_neighbor_reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm cartcomm) {
  return reduce(
      cartcomm, OpKind::reduce, [](int, Err&) {},
      [&](int t) {
        return std::vector<detail::BufferRegion>(static_cast<std::size_t>(t), detail::make_region(sendbuf, count, datatype));
      },
      recvbuf, count, datatype, op);
}

int CX_Cart_neighbor_scatter_reduce(const void* sendbuf, const int sendcounts[], const MPI_Aint senddispls[],
                                    const MPI_Datatype sendtypes[], void* recvbuf, int count, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm cartcomm) {
  return reduce(
      cartcomm, OpKind::scatter_reduce,
      [&](int t, Err& e) {
        detail::check_counts(t, sendcounts, "sendcounts", e);
        detail::check_ptr(t, senddispls, "senddispls", e);
        detail::check_types(t, sendtypes, "sendtypes", e);
      },
      [&](int t) {
        std::vector<detail::BufferRegion> own;
        for (int i = 0; i < t; ++i)
          own.push_back(detail::make_region(static_cast<const char*>(sendbuf) + senddispls[i], sendcounts[i], sendtypes[i]));
        return own;
      },
      recvbuf, count, datatype, op);
}

}  // extern "C"
