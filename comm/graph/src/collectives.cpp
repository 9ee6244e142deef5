// The public collectives: arguments of MPI_Neighbor_allgather(v) / alltoallv turned into the
// blocks of one call, then Algorithm 3 (schedule.cpp) and the program.
#include "cartex/graph/collectives.hpp"

#include "cartex/graph/error.hpp"
#include "program.hpp"
#include "schedule.hpp"

namespace cartex::graph {
namespace {

using detail::CallBlocks;
using detail::Piece;

// Duplicates of the caller's datatypes, freed unless handed to a program.
class TypeDups {
 public:
  TypeDups() = default;
  TypeDups(const TypeDups&) = delete;
  TypeDups& operator=(const TypeDups&) = delete;
  ~TypeDups() {
    for (MPI_Datatype& t : types_) check_mpi_nothrow(MPI_Type_free(&t), "MPI_Type_free");
  }
  MPI_Datatype dup(MPI_Datatype t) {
    if (t == MPI_DATATYPE_NULL) throw Error("cartex::graph: MPI_DATATYPE_NULL is not a datatype");
    MPI_Datatype d = MPI_DATATYPE_NULL;
    check_mpi(MPI_Type_dup(t, &d), "MPI_Type_dup");
    types_.push_back(d);
    return d;
  }
  std::vector<MPI_Datatype> release() { return std::move(types_); }

 private:
  std::vector<MPI_Datatype> types_;
};

MPI_Aint extent_of(MPI_Datatype t) {
  MPI_Aint lb = 0, extent = 0;
  check_mpi(MPI_Type_get_extent(t, &lb, &extent), "MPI_Type_get_extent");
  return extent;
}

Piece piece(const void* base, MPI_Aint displ, int count, MPI_Datatype t) {
  if (count < 0) throw Error("cartex::graph: negative count");
  int size = 0;
  check_mpi(MPI_Type_size(t, &size), "MPI_Type_size");
  char* at = static_cast<char*>(const_cast<void*>(base)) + displ * extent_of(t);
  return {at, count, t, count * size};
}

Plan make_plan(std::shared_ptr<const Pattern> pattern, const CallBlocks& blocks, TypeDups& types) {
  if (!pattern) throw Error("cartex::graph: no pattern");
  auto program = detail::build_schedule(*pattern, blocks, types.release());
  return Plan(std::move(pattern), std::move(program));
}

// Receive blocks of MPI_Neighbor_allgather(v): block i from sources()[i].
void gather_receives(CallBlocks& b, const Pattern& p, void* recvbuf, const int* counts, const int* displs, int count,
                     MPI_Datatype type) {
  const auto& sources = p.sources();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const int n = counts ? counts[i] : count;
    const MPI_Aint at = displs ? displs[i] : static_cast<MPI_Aint>(i) * count;
    b.recv_from[sources[i]].push_back(piece(recvbuf, at, n, type));
  }
  b.replicate_recv = true;
}

}  // namespace

Plan::Plan(std::shared_ptr<const Pattern> pattern, std::unique_ptr<detail::Program> program)
    : pattern_(std::move(pattern)), program_(std::move(program)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

void Plan::execute() { program_->execute(); }
int Plan::messages() const { return program_->messages(); }
std::size_t Plan::bytes() const { return program_->bytes(); }

Plan neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, std::shared_ptr<const Pattern> pattern) {
  if (!pattern) throw Error("cartex::graph: no pattern");
  TypeDups types;
  CallBlocks b;
  b.shared_send = true;
  b.own = piece(sendbuf, 0, sendcount, types.dup(sendtype));
  gather_receives(b, *pattern, recvbuf, nullptr, nullptr, recvcount, types.dup(recvtype));
  b.friend_sizes_known = true;
  return make_plan(std::move(pattern), b, types);
}

Plan neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                              std::shared_ptr<const Pattern> pattern) {
  if (!pattern) throw Error("cartex::graph: no pattern");
  TypeDups types;
  CallBlocks b;
  b.shared_send = true;
  b.own = piece(sendbuf, 0, sendcount, types.dup(sendtype));
  gather_receives(b, *pattern, recvbuf, recvcounts, displs, 0, types.dup(recvtype));
  return make_plan(std::move(pattern), b, types);
}

Plan neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             std::shared_ptr<const Pattern> pattern) {
  if (!pattern) throw Error("cartex::graph: no pattern");
  TypeDups types;
  const MPI_Datatype st = types.dup(sendtype), rt = types.dup(recvtype);
  CallBlocks b;
  const auto& targets = pattern->destinations();
  for (std::size_t j = 0; j < targets.size(); ++j)
    b.send_to[targets[j]].push_back(piece(sendbuf, sdispls[j], sendcounts[j], st));
  const auto& sources = pattern->sources();
  for (std::size_t i = 0; i < sources.size(); ++i)
    b.recv_from[sources[i]].push_back(piece(recvbuf, rdispls[i], recvcounts[i], rt));
  return make_plan(std::move(pattern), b, types);
}

void neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, const std::shared_ptr<const Pattern>& pattern) {
  neighbor_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, pattern).execute();
}

void neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         const std::shared_ptr<const Pattern>& pattern) {
  neighbor_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, pattern).execute();
}

void neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        const std::shared_ptr<const Pattern>& pattern) {
  neighbor_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, pattern)
      .execute();
}

}  // namespace cartex::graph
