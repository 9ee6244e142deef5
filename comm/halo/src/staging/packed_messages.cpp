#include "staging/packed_messages.hpp"

#include "cartex/core/phase_profile.hpp"
#include "communicators.hpp"
#include "mpi_check.hpp"

namespace cartex::halo {

PackedMessages::PackedMessages(std::vector<Message> sends, std::vector<Message> recvs, MPI_Comm comm, Staging staging,
                               int fields)
    : sends_(std::move(sends)),
      recvs_(std::move(recvs)),
      comm_(duplicate(comm)),
      buffers_(cell_lists(sends_), cell_lists(recvs_), staging, {}, fields),
      requests_(sends_.size() + recvs_.size(), MPI_REQUEST_NULL) {}

PackedMessages::~PackedMessages() {
  // Never leave MPI writing into freed buffers (a destructor does not throw: a failure is reported).
  if (phase_.active())
    check_mpi_nothrow(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void PackedMessages::start(const FieldSet& f) {
  phase_.start(f);
  {
    core::PhaseScope post_receives(core::Phase::kHaloPost);
    for (size_t m = 0; m < recvs_.size(); ++m)
      check_mpi(MPI_Irecv(buffers_.recv_data() + buffers_.recvs().offset(m), static_cast<int>(buffers_.recvs().count(m)),
                          MPI_DOUBLE, recvs_[m].rank, recvs_[m].tag, comm_.get(), &requests_[m]),
                "MPI_Irecv");
  }
  buffers_.pack(f);
  core::PhaseScope post_sends(core::Phase::kHaloPost);
  for (size_t m = 0; m < sends_.size(); ++m)
    check_mpi(MPI_Isend(buffers_.send_data() + buffers_.sends().offset(m), static_cast<int>(buffers_.sends().count(m)),
                        MPI_DOUBLE, sends_[m].rank, sends_[m].tag, comm_.get(), &requests_[recvs_.size() + m]),
              "MPI_Isend");
}

}  // namespace cartex::halo
