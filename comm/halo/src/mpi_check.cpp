#include "mpi_check.hpp"

#include <fmt/format.h>

#include <vector>

#include "cartex/core/error.hpp"
#include "cartex/halo/pattern.hpp"

namespace cartex::halo {

void check_mpi(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);  // best effort: only for the message
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw core::Error(fmt::format("{} failed on rank {}: {}", call, rank, std::string(text, static_cast<size_t>(len))));
}

OwnedComm duplicate(MPI_Comm comm) {
  MPI_Comm dup = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup");
  return OwnedComm(dup);
}

OwnedComm block_graph(const HaloPattern& p, MPI_Comm comm) {
  std::vector<int> sources, targets;
  for (const auto& r : p.recvs()) sources.push_back(r.rank);
  for (const auto& s : p.sends()) targets.push_back(s.rank);
  MPI_Comm graph = MPI_COMM_NULL;
  check_mpi(MPI_Dist_graph_create_adjacent(comm, static_cast<int>(sources.size()), sources.data(), MPI_UNWEIGHTED,
                                           static_cast<int>(targets.size()), targets.data(), MPI_UNWEIGHTED, MPI_INFO_NULL,
                                           0, &graph),
            "MPI_Dist_graph_create_adjacent");
  return OwnedComm(graph);
}

void StartFinish::start() {
  core::require(state_ == State::idle, "halo exchange started twice without finish");
  state_ = State::in_flight;
}

void StartFinish::finish() {
  core::require(state_ != State::idle, "halo exchange finished without start");
  state_ = State::idle;
}

bool test_all(std::vector<MPI_Request>& requests, size_t n) {
  int flag = 1;
  // Open MPI refuses a null request array even for a count of 0.
  if (n > 0) check_mpi(MPI_Testall(static_cast<int>(n), requests.data(), &flag, MPI_STATUSES_IGNORE), "MPI_Testall");
  return flag != 0;
}

void wait_all(std::vector<MPI_Request>& requests, size_t n) {
  if (n > 0) check_mpi(MPI_Waitall(static_cast<int>(n), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

}  // namespace cartex::halo
