// Test program of main's error handling (cartex::entry::run_main): throws one kind of cartex error
// on the last rank, in the set-up or the run phase.
//   error_program KIND PHASE   KIND: input, cartex, graph, cart; PHASE: setup, run
#include <mpi.h>

#include <string>
#include <type_traits>

#include "cartex/cart/error.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/leak_check.h"
#include "cartex/entry/run_main.hpp"
#include "cartex/graph/error.hpp"

// comm/graph's error is a cartex::core::Error, so every handler of cartex errors takes it.
static_assert(std::is_base_of_v<cartex::core::Error, cartex::graph::Error>);

namespace {

// Throws the error of `kind` the way its layer does.
void throw_error(const std::string& kind) {
  if (kind == "input") throw cartex::core::InputError("input.yaml:3:7: grid.n: expected a list of 2 or 3 positive integers");
  if (kind == "cartex") throw cartex::core::Error("cannot write out/history.csv.tmp");
  if (kind == "graph") cartex::graph::check_mpi(MPI_ERR_COMM, "MPI_Dist_graph_neighbors_count");
  if (kind == "cart") throw cartex::cart::Error(MPI_ERR_ARG, "CX_Cart_neighborhood_create: 0 neighbors");
}

}  // namespace

int main(int argc, char** argv) {
  {
    cartex::core::UntrackedAllocations mpi_own;  // cartex/core/leak_check.h
    MPI_Init(&argc, &argv);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string kind = argc > 1 ? argv[1] : "", phase = argc > 2 ? argv[2] : "";
  const bool here = rank == size - 1;
  const int code = cartex::entry::run_main(
      MPI_COMM_WORLD, [&] { if (here && phase == "setup") throw_error(kind); },
      [&] {
        if (here && phase == "run") throw_error(kind);
        // The other ranks wait in a collective the failing rank never joins: the error must not hang.
        MPI_Barrier(MPI_COMM_WORLD);
        return 0;
      });
  cartex::core::check_leaks_now();
  MPI_Finalize();
  return code;
}
