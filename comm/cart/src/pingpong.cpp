// Ping-pong measurement of alpha (half round trip of 1 byte) and beta (extra time per byte of a
// 64 KiB message), the minimum over repetitions to drop scheduler noise.
#include "cartex/cart/model.hpp"

#include <algorithm>
#include <vector>

#include "cartex/cart/error.hpp"

namespace cartex::cart {
namespace {

double half_round_trip(MPI_Comm comm, int rank, int partner, std::vector<char>& buf, int bytes, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const double t0 = MPI_Wtime();
    if (rank % 2 == 0) {
      check_mpi(MPI_Send(buf.data(), bytes, MPI_BYTE, partner, 0, comm), "MPI_Send");
      check_mpi(MPI_Recv(buf.data(), bytes, MPI_BYTE, partner, 0, comm, MPI_STATUS_IGNORE), "MPI_Recv");
    } else {
      check_mpi(MPI_Recv(buf.data(), bytes, MPI_BYTE, partner, 0, comm, MPI_STATUS_IGNORE), "MPI_Recv");
      check_mpi(MPI_Send(buf.data(), bytes, MPI_BYTE, partner, 0, comm), "MPI_Send");
    }
    best = std::min(best, (MPI_Wtime() - t0) / 2.0);
  }
  return best;
}

}  // namespace

LinearModel measure_linear_model(MPI_Comm comm) {
  constexpr int kLarge = 1 << 16;
  constexpr int kReps = 20;
  int rank = 0, size = 1;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  const int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
  double local[2] = {0.0, 0.0};
  if (partner < size) {
    std::vector<char> buf(kLarge);
    half_round_trip(comm, rank, partner, buf, 1, 3);
    const double alpha = half_round_trip(comm, rank, partner, buf, 1, kReps);
    const double large = half_round_trip(comm, rank, partner, buf, kLarge, kReps);
    local[0] = alpha;
    local[1] = std::max(large - alpha, 1e-12) / kLarge;
  }
  double global[2] = {0.0, 0.0};
  check_mpi(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  // One process: nothing to measure; typical shared-memory numbers keep the model meaningful.
  if (size < 2) return {5e-7, 1e-10};
  return {global[0], global[1]};
}

}  // namespace cartex::cart
