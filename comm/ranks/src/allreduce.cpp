// allreduce(): dispatch by algorithm. Ring and Ring* run on a duplicate of the caller's
// communicator, created with the Ring* renaming on first use and cached as an attribute, so the
// layout is detected once per communicator and the ring's messages never meet the caller's.
#include <stdexcept>

#include "cartex/ranks/allreduce.hpp"
#include "mpi_check.hpp"

namespace cartex::ranks {
namespace {

// What a communicator caches: its private duplicate and the Ring* renaming of its layout.
struct Cached {
  MPI_Comm dup;
  Renaming plain;
  Renaming renamed;
};

int delete_cached(MPI_Comm, int, void* value, void*) {
  auto* c = static_cast<Cached*>(value);
  const int rc = MPI_Comm_free(&c->dup);
  delete c;
  return rc;  // MPI reports a failed free as the error of the call that deleted the attribute
}

const Cached& cached(MPI_Comm comm) {
  static int keyval = MPI_KEYVAL_INVALID;
  if (keyval == MPI_KEYVAL_INVALID)
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cached, &keyval, nullptr), "MPI_Comm_create_keyval");
  void* value = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(comm, keyval, &value, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<Cached*>(value);
  const int procs = core::comm_size(comm);
  Renaming renamed = Renaming::sequential_for(layout_from_env(comm));
  MPI_Comm dup = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup");
  auto* c = new Cached{dup, Renaming::identity(procs), std::move(renamed)};
  const int rc = MPI_Comm_set_attr(comm, keyval, c);
  if (rc != MPI_SUCCESS) {
    check_mpi_nothrow(MPI_Comm_free(&c->dup), "MPI_Comm_free");  // the set_attr failure is the one to throw
    delete c;
    check_mpi(rc, "MPI_Comm_set_attr");
  }
  return *c;
}

}  // namespace

std::string to_string(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::mpi: return "mpi";
    case Algorithm::ring: return "ring";
    case Algorithm::ring_renamed: return "ring_renamed";
  }
  return "mpi";
}

std::vector<std::string> algorithm_names() {
  return {to_string(Algorithm::mpi), to_string(Algorithm::ring), to_string(Algorithm::ring_renamed)};
}

Algorithm parse_algorithm(const std::string& text) {
  if (text == "mpi") return Algorithm::mpi;
  if (text == "ring") return Algorithm::ring;
  if (text == "ring_renamed") return Algorithm::ring_renamed;
  throw std::invalid_argument("allreduce algorithm: expected ring, ring_renamed or mpi, got '" + text + "'");
}

void allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               Algorithm algorithm) {
  if (algorithm == Algorithm::mpi) {
    check_mpi(MPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm), "MPI_Allreduce");
    return;
  }
  const Cached& c = cached(comm);
  ring_allreduce(sendbuf, recvbuf, count, datatype, op, c.dup, algorithm == Algorithm::ring ? c.plain : c.renamed);
}

}  // namespace cartex::ranks
