// The C++ interface: RAII wrappers over the C interface that throw Error.
#include "cartex/cart/neighborhood.hpp"

#include <string>
#include <utility>

#include "state.hpp"

namespace cartex::cart {

void check_cx(int rc) {
  if (rc == MPI_SUCCESS) return;
  char text[CX_MAX_ERROR_STRING];
  int len = 0;
  CX_Error_string(text, &len);
  throw Error(rc, std::string(text, static_cast<std::size_t>(len)));
}

Plan& Plan::operator=(Plan&& other) noexcept {
  std::swap(plan_, other.plan_);
  return *this;
}

Plan::~Plan() {
  if (plan_ != nullptr) CX_Cart_plan_free(&plan_);
}

void Plan::execute() { check_cx(CX_Cart_plan_execute(plan_)); }

void Plan::start() { check_cx(CX_Cart_plan_start(plan_)); }

bool Plan::test() {
  int flag = 0;
  check_cx(CX_Cart_plan_test(plan_, &flag));
  return flag != 0;
}

void Plan::wait() { check_cx(CX_Cart_plan_wait(plan_)); }

namespace {

// The info object carrying options (freed by the caller).
MPI_Info info_of(const Options& o) {
  MPI_Info info = MPI_INFO_NULL;
  check_mpi(MPI_Info_create(&info), "MPI_Info_create");
  const char* algorithm[] = {"direct", "combining", "auto"};
  const char* execution[] = {"zerocopy", "packed", "auto"};
  try {
    check_mpi(MPI_Info_set(info, "cx_algorithm", algorithm[static_cast<int>(o.algorithm)]), "MPI_Info_set");
    check_mpi(MPI_Info_set(info, "cx_execution", execution[static_cast<int>(o.execution)]), "MPI_Info_set");
    if (o.check_isomorphic) check_mpi(MPI_Info_set(info, "cx_check_isomorphic", "true"), "MPI_Info_set");
    if (o.alpha > 0.0 && o.beta > 0.0) {
      check_mpi(MPI_Info_set(info, "cx_alpha", std::to_string(o.alpha).c_str()), "MPI_Info_set");
      check_mpi(MPI_Info_set(info, "cx_beta", std::to_string(o.beta).c_str()), "MPI_Info_set");
    }
  } catch (...) {
    check_mpi_nothrow(MPI_Info_free(&info), "MPI_Info_free");  // the first error is the one to throw
    throw;
  }
  return info;
}

}  // namespace

Neighborhood::Neighborhood(MPI_Comm comm, const std::vector<int>& dims, const std::vector<int>& periods,
                           const std::vector<int>& offsets, const Options& options, bool reorder) {
  const int d = static_cast<int>(dims.size());
  if (periods.size() != dims.size() || d == 0 || offsets.size() % dims.size() != 0)
    throw Error(MPI_ERR_ARG, "dims, periods and offsets do not fit together");
  MPI_Info info = info_of(options);
  const int rc = CX_Cart_neighborhood_create(comm, d, dims.data(), periods.data(), static_cast<int>(offsets.size()) / d,
                                             offsets.data(), MPI_UNWEIGHTED, info, reorder ? 1 : 0, &comm_);
  const int free_rc = MPI_Info_free(&info);
  check_cx(rc);
  check_mpi(free_rc, "MPI_Info_free");
}

Neighborhood& Neighborhood::operator=(Neighborhood&& other) noexcept {
  std::swap(comm_, other.comm_);
  return *this;
}

Neighborhood::~Neighborhood() {
  if (comm_ != MPI_COMM_NULL) check_mpi_nothrow(MPI_Comm_free(&comm_), "MPI_Comm_free");
}

int Neighborhood::size() const {
  int t = 0;
  check_cx(CX_Cart_neighbor_count(comm_, &t));
  return t;
}

const Schedule& Neighborhood::schedule(Collective collective, bool combining) const {
  return detail::state_of(comm_)->schedule(collective, combining);
}

void Neighborhood::alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype) {
  check_cx(CX_Cart_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm_));
}

void Neighborhood::alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype) {
  check_cx(CX_Cart_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm_));
}

void Neighborhood::alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]) {
  check_cx(CX_Cart_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm_));
}

void Neighborhood::allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype) {
  check_cx(CX_Cart_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm_));
}

void Neighborhood::allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype) {
  check_cx(CX_Cart_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm_));
}

void Neighborhood::allgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[]) {
  check_cx(CX_Cart_allgatherw(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtypes, comm_));
}

void Neighborhood::reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  check_cx(CX_Cart_neighbor_reduce(sendbuf, recvbuf, count, datatype, op, comm_));
}

void Neighborhood::scatter_reduce(const void* sendbuf, const int sendcounts[], const MPI_Aint senddispls[],
                                  const MPI_Datatype sendtypes[], void* recvbuf, int count, MPI_Datatype datatype,
                                  MPI_Op op) {
  check_cx(CX_Cart_neighbor_scatter_reduce(sendbuf, sendcounts, senddispls, sendtypes, recvbuf, count, datatype, op,
                                           comm_));
}

Plan Neighborhood::alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype) {
  CX_Cart_plan plan = nullptr;
  check_cx(CX_Cart_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm_, &plan));
  return Plan(plan);
}

Plan Neighborhood::alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                  MPI_Datatype recvtype) {
  CX_Cart_plan plan = nullptr;
  check_cx(CX_Cart_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm_,
                                  &plan));
  return Plan(plan);
}

Plan Neighborhood::alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]) {
  CX_Cart_plan plan = nullptr;
  check_cx(CX_Cart_alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm_,
                                  &plan));
  return Plan(plan);
}

Plan Neighborhood::allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype) {
  CX_Cart_plan plan = nullptr;
  check_cx(CX_Cart_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm_, &plan));
  return Plan(plan);
}

}  // namespace cartex::cart
