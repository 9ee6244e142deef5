// Distributed friend pairing, HiPC'17 Algorithm 2 (a Hoepman-style distributed matching).
#pragma once

#include <mpi.h>

#include <map>

namespace cartex::graph::detail {

// Pairs this process with at most one friend, mutually: returns the friend or -1 (terminal).
// `friends` maps each friend to the number of common out-neighbors; friendship is symmetric, so
// every process talks to exactly the processes that talk to it.
int pair_with_friend(MPI_Comm comm, int me, const std::map<int, int>& friends);

}  // namespace cartex::graph::detail
