#include "staging/packed_messages.hpp"

#include <climits>
#include <vector>

#include "cartex/core/error.hpp"
#include "cartex/core/phase_profile.hpp"
#include "communicators.hpp"
#include "mpi_check.hpp"

namespace cartex::halo {

PackedMessages::PackedMessages(std::vector<Message> sends, std::vector<Message> recvs, MPI_Comm comm, Staging staging,
                               int fields, WholePlanes planes)
    : sends_(std::move(sends)),
      recvs_(std::move(recvs)),
      planes_(std::move(planes)),
      comm_(duplicate(comm)),
      buffers_(cell_lists(sends_), cell_lists(recvs_), staging, {}, fields),
      requests_(sends_.size() + recvs_.size() + planes_.sends.size() + planes_.recvs.size(), MPI_REQUEST_NULL) {
  for (const PlaneRange& r : planes_.sends)
    core::require(r.count * fields <= INT_MAX, "whole planes: a message beyond MPI's int count");
}

PackedMessages::~PackedMessages() {
  // Never leave MPI writing into freed buffers (a destructor does not throw: a failure is reported).
  if (phase_.active())
    check_mpi_nothrow(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void PackedMessages::post_planes(const FieldSet& f, const PlaneRange& r, bool send, MPI_Request* request) const {
  // One field: its planes as they lie. N fields: an hindexed type over their planes (made per exchange,
  // as the set's pointers may change; freeing it leaves the posted message alone).
  void* data = f[0].view.data() + r.first;
  MPI_Datatype type = MPI_DOUBLE;
  int count = static_cast<int>(r.count);
  if (f.size() > 1) {
    std::vector<int> lengths(f.size(), count);
    std::vector<MPI_Aint> at(f.size());
    for (size_t q = 0; q < f.size(); ++q) check_mpi(MPI_Get_address(f[q].view.data() + r.first, &at[q]), "MPI_Get_address");
    check_mpi(MPI_Type_create_hindexed(static_cast<int>(f.size()), lengths.data(), at.data(), MPI_DOUBLE, &type),
              "MPI_Type_create_hindexed");
    check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
    data = MPI_BOTTOM;
    count = 1;
  }
  if (send)
    check_mpi(MPI_Isend(data, count, type, r.rank, r.tag, comm_.get(), request), "MPI_Isend");
  else
    check_mpi(MPI_Irecv(data, count, type, r.rank, r.tag, comm_.get(), request), "MPI_Irecv");
  if (type != MPI_DOUBLE) check_mpi(MPI_Type_free(&type), "MPI_Type_free");
}

void PackedMessages::copy_plane_sends(bool copy) {
  core::require(!active(), "copy_plane_sends with an exchange in flight");
  long cells = 0;
  for (const PlaneRange& r : planes_.sends) cells += r.count;
  if (copy && cells > 0 && !copies_plane_sends())
    plane_sends_ = Kokkos::View<double*>("cartex::halo_plane_sends", static_cast<size_t>(cells * buffers_.sends().fields()));
  if (!copy) plane_sends_ = Kokkos::View<double*>();
}

void PackedMessages::copy_planes(const FieldSet& f) const {
  core::PhaseScope pack(core::Phase::kHaloPack);
  using Range = Kokkos::View<double*, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const Kokkos::DefaultExecutionSpace exec;
  long at = 0;
  for (const PlaneRange& r : planes_.sends)
    for (size_t q = 0; q < f.size(); ++q, at += r.count)
      Kokkos::deep_copy(exec, Kokkos::subview(plane_sends_, std::pair<long, long>(at, at + r.count)),
                        Range(f[q].view.data() + r.first, static_cast<size_t>(r.count)));
  exec.fence();  // MPI reads the buffer next
}

void PackedMessages::start(const FieldSet& f) {
  phase_.start(f);
  const size_t first_plane = sends_.size() + recvs_.size();  // the planes' requests follow the packed ones'
  {
    core::PhaseScope post_receives(core::Phase::kHaloPost);
    for (size_t m = 0; m < planes_.recvs.size(); ++m) post_planes(f, planes_.recvs[m], false, &requests_[first_plane + m]);
    for (size_t m = 0; m < recvs_.size(); ++m)
      check_mpi(MPI_Irecv(buffers_.recv_data() + buffers_.recvs().offset(m), static_cast<int>(buffers_.recvs().count(m)),
                          MPI_DOUBLE, recvs_[m].rank, recvs_[m].tag, comm_.get(), &requests_[m]),
                "MPI_Irecv");
  }
  buffers_.pack(f);
  if (copies_plane_sends()) copy_planes(f);
  core::PhaseScope post_sends(core::Phase::kHaloPost);
  for (size_t m = 0; m < sends_.size(); ++m)
    check_mpi(MPI_Isend(buffers_.send_data() + buffers_.sends().offset(m), static_cast<int>(buffers_.sends().count(m)),
                        MPI_DOUBLE, sends_[m].rank, sends_[m].tag, comm_.get(), &requests_[recvs_.size() + m]),
              "MPI_Isend");
  long at = 0;  // the copies' offset
  for (size_t m = 0; m < planes_.sends.size(); ++m) {
    const PlaneRange& r = planes_.sends[m];
    MPI_Request* request = &requests_[first_plane + planes_.recvs.size() + m];
    if (!copies_plane_sends()) {
      post_planes(f, r, true, request);
      continue;
    }
    const long n = r.count * static_cast<long>(f.size());
    check_mpi(MPI_Isend(plane_sends_.data() + at, static_cast<int>(n), MPI_DOUBLE, r.rank, r.tag, comm_.get(), request), "MPI_Isend");
    at += n;
  }
}

}  // namespace cartex::halo
