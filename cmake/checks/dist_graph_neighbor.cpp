// Configure-time check (cmake/CartexMpiFeatures.cmake): MPI_Dist_graph_create_adjacent makes a dist
// graph and MPI_Neighbor_alltoall moves a block along a ring on it. Exit 0 only when both work.
#include <mpi.h>

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
  int rank = 0, size = 0;
  if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || MPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS) return 1;
  const int target = (rank + 1) % size, source = (rank + size - 1) % size;
  MPI_Comm graph = MPI_COMM_NULL;
  int ok = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &source, MPI_UNWEIGHTED, 1, &target, MPI_UNWEIGHTED,
                                          MPI_INFO_NULL, 0, &graph) == MPI_SUCCESS && graph != MPI_COMM_NULL;
  int topology = MPI_UNDEFINED;
  ok = ok && MPI_Topo_test(graph, &topology) == MPI_SUCCESS && topology == MPI_DIST_GRAPH;
  int sent = 1000 + rank, got = -1;
  ok = ok && MPI_Neighbor_alltoall(&sent, 1, MPI_INT, &got, 1, MPI_INT, graph) == MPI_SUCCESS && got == 1000 + source;
  int all = 0;
  if (MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD) != MPI_SUCCESS) all = 0;
  if (graph != MPI_COMM_NULL && MPI_Comm_free(&graph) != MPI_SUCCESS) all = 0;
  if (MPI_Finalize() != MPI_SUCCESS) all = 0;
  return all ? 0 : 1;
}
