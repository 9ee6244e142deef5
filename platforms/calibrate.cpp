// The intra-node costs of the SMPI platforms (platforms/*.xml, docs/scale.md "Calibration"), measured
// with the real MPI on this machine (2 ranks on one node, shared memory), printed as the SimGrid settings:
//   smpi/ois           sender's plus receiver's CPU time per small message (each rank of a neighbourhood
//                      collective sends and receives as many): N messages of 4 bytes posted (MPI_Isend /
//                      MPI_Irecv, receives pre-posted) and completed, time per message at each end
//   loopback_lat       half the ping-pong round trip of 4 bytes (blocking sends: SMPI charges them no
//                      per-message CPU cost with smpi/send-is-detached-thresh:0, docs/scale.md)
//   loopback_bw        bytes per second of the ping-pong at 4 MiB (one-way, half the round trip)
// Build and run: mpicxx -O2 platforms/calibrate.cpp -o calibrate && mpiexec -n 2 ./calibrate
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) {
    std::fprintf(stderr, "calibrate: %s failed\n", call);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

// The median of `reps` one-way times (half a round trip) of `bytes`.
double pingpong(int rank, int bytes, int reps) {
  std::vector<char> buf(static_cast<std::size_t>(bytes) + 1);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    const double t0 = MPI_Wtime();
    if (rank == 0) {
      check(MPI_Send(buf.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD), "MPI_Send");
      check(MPI_Recv(buf.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
    } else {
      check(MPI_Recv(buf.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
      check(MPI_Send(buf.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD), "MPI_Send");
    }
    t.push_back((MPI_Wtime() - t0) / 2);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Median over `reps` of the time per message that posting and completing n 4-byte messages takes
// the sender (rank 0) and the receiver (rank 1, receives posted before the sender starts).
void overheads(int rank, int n, int reps, double* os, double* orecv) {
  std::vector<int> sbuf(static_cast<std::size_t>(n)), rbuf(static_cast<std::size_t>(n));
  std::vector<MPI_Request> req(static_cast<std::size_t>(n));
  std::vector<double> ts, tr;
  for (int r = 0; r < reps; ++r) {
    if (rank == 1)
      for (int i = 0; i < n; ++i) check(MPI_Irecv(&rbuf[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD, &req[i]), "MPI_Irecv");
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    const double t0 = MPI_Wtime();
    if (rank == 0)
      for (int i = 0; i < n; ++i) check(MPI_Isend(&sbuf[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD, &req[i]), "MPI_Isend");
    check(MPI_Waitall(n, req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    const double dt = (MPI_Wtime() - t0) / n;
    (rank == 0 ? ts : tr).push_back(dt);
  }
  std::vector<double>& mine = rank == 0 ? ts : tr;
  std::sort(mine.begin(), mine.end());
  double med = mine[mine.size() / 2], other = 0;
  if (rank == 0) check(MPI_Recv(&other, 1, MPI_DOUBLE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
  else check(MPI_Send(&med, 1, MPI_DOUBLE, 0, 99, MPI_COMM_WORLD), "MPI_Send");
  *os = med;
  *orecv = other;
}

}  // namespace

int main(int argc, char** argv) {
  check(MPI_Init(&argc, &argv), "MPI_Init");
  int rank = 0, size = 0;
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "calibrate: run on 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  pingpong(rank, 4, 1000);  // warm-up
  const double small = pingpong(rank, 4, 2000);
  const int big_bytes = 4 << 20;
  const double big = pingpong(rank, big_bytes, 50);
  double os = 0, orecv = 0;
  overheads(rank, 1000, 50, &os, &orecv);
  if (rank == 0) {
    std::printf("one-way 4 B: %.3f us; one-way 4 MiB: %.1f us (%.2f GB/s)\n", small * 1e6, big * 1e6, big_bytes / big / 1e9);
    std::printf("per message: sender %.3f us, receiver %.3f us\n", os * 1e6, orecv * 1e6);
    std::printf("--cfg=smpi/ois:0:%.3g:0 loopback_lat=\"%.3gus\" loopback_bw=\"%.3gGBps\"\n", os + orecv, small * 1e6,
                big_bytes / big / 1e9);
  }
  check(MPI_Finalize(), "MPI_Finalize");
  return 0;
}
