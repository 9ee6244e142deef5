// Execution of a schedule with persistent point-to-point requests (MPI_Startall per phase).
#include "program.hpp"

#include <cstring>

#include "cartex/graph/error.hpp"

namespace cartex::graph::detail {

Program::Program(MPI_Comm comm, std::vector<Phase> phases, std::size_t staging_bytes,
                 std::vector<MPI_Datatype> owned_types)
    : comm_(comm), phases_(std::move(phases)), staging_(staging_bytes + 1), owned_types_(std::move(owned_types)) {
  requests_.resize(phases_.size());
  for (std::size_t p = 0; p < phases_.size(); ++p) {
    // Receives first so that every message of a phase finds its buffer posted.
    for (const Transfer& t : phases_[p].recvs) {
      requests_[p].emplace_back();
      check_mpi(MPI_Recv_init(staging_.data() + t.offset, t.bytes, MPI_BYTE, t.peer, t.tag, comm_, &requests_[p].back()),
                "MPI_Recv_init");
    }
    for (const Transfer& t : phases_[p].sends) {
      requests_[p].emplace_back();
      check_mpi(MPI_Send_init(staging_.data() + t.offset, t.bytes, MPI_BYTE, t.peer, t.tag, comm_, &requests_[p].back()),
                "MPI_Send_init");
    }
  }
}

Program::~Program() {
  int finalized = 0;
  check_mpi_nothrow(MPI_Finalized(&finalized), "MPI_Finalized");
  if (finalized) return;
  for (auto& phase : requests_)
    for (MPI_Request& r : phase) check_mpi_nothrow(MPI_Request_free(&r), "MPI_Request_free");
  for (MPI_Datatype& t : owned_types_) check_mpi_nothrow(MPI_Type_free(&t), "MPI_Type_free");
}

void Program::execute() {
  char* staging = staging_.data();
  for (std::size_t p = 0; p < phases_.size(); ++p) {
    const Phase& ph = phases_[p];
    for (const PackOp& op : ph.packs) {
      int pos = 0;
      check_mpi(MPI_Pack(op.buf, op.count, op.type, staging + op.offset, op.bytes, &pos, comm_), "MPI_Pack");
    }
    for (const CopyOp& op : ph.copies) std::memcpy(staging + op.to, staging + op.from, op.bytes);
    if (!requests_[p].empty()) {
      check_mpi(MPI_Startall(static_cast<int>(requests_[p].size()), requests_[p].data()), "MPI_Startall");
      check_mpi(MPI_Waitall(static_cast<int>(requests_[p].size()), requests_[p].data(), MPI_STATUSES_IGNORE),
                "MPI_Waitall");
    }
    for (const UnpackOp& op : ph.unpacks) {
      int pos = 0;
      check_mpi(MPI_Unpack(staging + op.offset, op.bytes, &pos, op.buf, op.count, op.type, comm_), "MPI_Unpack");
    }
  }
}

int Program::messages() const {
  int n = 0;
  for (const Phase& p : phases_) n += static_cast<int>(p.sends.size());
  return n;
}

std::size_t Program::bytes() const {
  std::size_t n = 0;
  for (const Phase& p : phases_)
    for (const Transfer& t : p.sends) n += static_cast<std::size_t>(t.bytes);
  return n;
}

}  // namespace cartex::graph::detail
