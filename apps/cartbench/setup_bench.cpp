// Neighborhood creation time (EuroMPI'15 section 7.1, Figures 2-3): CX_Cart_neighborhood_create
// against MPI_Cart_create followed by MPI_Dist_graph_create_adjacent or MPI_Dist_graph_create
// with the same neighbors, plus the local schedule construction that the first collective adds.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cartex/core/mpi_check.hpp"
#include "benchstats/summary.hpp"
#include "cartex/cart/cx_cart.h"
#include "cartex/cart/neighborhood.hpp"
#include "cartex/cart/schedule.hpp"
#include "config.hpp"

namespace cartbench {

using cartex::cart::check_cx;  // the C API returns an MPI error class; its text is CX_Error_string
using cartex::core::check_mpi;

void run_setup(const Config& c) {
  int p = 0, rank = 0;
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &p), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  const std::vector<int> dims = dims_of(c, p), offsets = offsets_of(c);
  const std::vector<int> periods(dims.size(), c.mesh ? 0 : 1);
  const int t = static_cast<int>(offsets.size()) / c.d;
  // Neighbor lists of the MPI variants, computed on a Cartesian communicator (not timed).
  auto neighbor_lists = [&](MPI_Comm cart, std::vector<int>& src, std::vector<int>& dst) {
    src.clear();
    dst.clear();
    for (int i = 0; i < t; ++i) {
      int in = 0, out = 0;
      check_cx(CX_Cart_relative_shift(cart, offsets.data() + static_cast<std::size_t>(i) * c.d, &in, &out));
      if (in != MPI_PROC_NULL) src.push_back(in);
      if (out != MPI_PROC_NULL) dst.push_back(out);
    }
    src.push_back(0);
    dst.push_back(0);
  };
  struct Variant {
    std::string name;
    std::function<double()> once;  // returns this process's time of one creation
  };
  std::vector<Variant> variants = {
      {"cx_neighborhood_create",
       [&] {
         MPI_Comm comm;
         const double t0 = MPI_Wtime();
         check_cx(CX_Cart_neighborhood_create(MPI_COMM_WORLD, c.d, dims.data(), periods.data(), t, offsets.data(), MPI_UNWEIGHTED,
                                              MPI_INFO_NULL, 0, &comm));
         const double dt = MPI_Wtime() - t0;
         check_mpi(MPI_Comm_free(&comm), "MPI_Comm_free");
         return dt;
       }},
      {"cart+dist_graph_adjacent",
       [&] {
         MPI_Comm cart, graph;
         std::vector<int> src, dst;
         double t0 = MPI_Wtime();
         check_mpi(MPI_Cart_create(MPI_COMM_WORLD, c.d, dims.data(), periods.data(), 0, &cart), "MPI_Cart_create");
         double dt = MPI_Wtime() - t0;
         neighbor_lists(cart, src, dst);
         t0 = MPI_Wtime();
         check_mpi(MPI_Dist_graph_create_adjacent(cart, static_cast<int>(src.size()) - 1, src.data(), MPI_UNWEIGHTED,
                                                  static_cast<int>(dst.size()) - 1, dst.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                                  &graph),
                   "MPI_Dist_graph_create_adjacent");
         dt += MPI_Wtime() - t0;
         check_mpi(MPI_Comm_free(&graph), "MPI_Comm_free");
         check_mpi(MPI_Comm_free(&cart), "MPI_Comm_free");
         return dt;
       }},
      {"cart+dist_graph",
       [&] {
         MPI_Comm cart, graph;
         std::vector<int> src, dst;
         double t0 = MPI_Wtime();
         check_mpi(MPI_Cart_create(MPI_COMM_WORLD, c.d, dims.data(), periods.data(), 0, &cart), "MPI_Cart_create");
         double dt = MPI_Wtime() - t0;
         neighbor_lists(cart, src, dst);
         int me = 0;
         check_mpi(MPI_Comm_rank(cart, &me), "MPI_Comm_rank");
         const int degree = static_cast<int>(dst.size()) - 1;
         t0 = MPI_Wtime();
         check_mpi(MPI_Dist_graph_create(cart, 1, &me, &degree, dst.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph),
                   "MPI_Dist_graph_create");
         dt += MPI_Wtime() - t0;
         check_mpi(MPI_Comm_free(&graph), "MPI_Comm_free");
         check_mpi(MPI_Comm_free(&cart), "MPI_Comm_free");
         return dt;
       }},
      {"schedules_alltoall+allgather", [&] {
         const double t0 = MPI_Wtime();
         const cartex::cart::Offsets off(c.d, offsets);
         const int rounds = cartex::cart::alltoall_schedule(off).rounds() + cartex::cart::allgather_schedule(off).rounds();
         const double dt = MPI_Wtime() - t0;
         return rounds > 0 ? dt : 0.0;
       }}};
#ifdef CARTEX_NO_DIST_GRAPH
  // No dist graphs in this MPI (configure-time check, cmake/CartexMpiFeatures.cmake): only ours is timed.
  variants.erase(std::remove_if(variants.begin(), variants.end(), [](const Variant& v) { return v.name.rfind("cart+dist", 0) == 0; }),
                 variants.end());
  if (rank == 0) fmt::print("cart+dist_graph_adjacent, cart+dist_graph: unavailable in this build: {}\n", CARTEX_NO_DIST_GRAPH);
#endif
  std::vector<std::vector<double>> samples(variants.size());
  for (auto& v : variants)
    for (int w = 0; w < std::min(c.warmup, 3); ++w) v.once();
  for (int s = 0; s < c.series; ++s)
    for (std::size_t i = 0; i < variants.size(); ++i)
      for (int r = 0; r < c.reps; ++r) {
        check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
        double local = variants[i].once(), slowest = 0.0;
        check_mpi(MPI_Reduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD), "MPI_Reduce");
        samples[i].push_back(slowest);
      }
  if (rank != 0) return;
  fmt::print("creation of {} (t={}) on {} processes, {} series x {} reps\n", neighborhood_name(c), t, p, c.series, c.reps);
  fmt::print("{:<30} {:>11} {:>23}\n", "variant", "median[us]", "95% CI [us]");
  std::FILE* csv = c.csv.empty() ? nullptr : std::fopen(c.csv.c_str(), "w");
  if (csv != nullptr) std::fprintf(csv, "label,neighborhood,t,procs,variant,samples,kept,median_us,ci_low_us,ci_high_us\n");
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const benchstats::Summary s = benchstats::summarize(samples[i], c.tukey);
    fmt::print("{:<30} {:>11.2f} [{:>9.2f}, {:>9.2f}]\n", variants[i].name, s.median * 1e6, s.ci_low * 1e6, s.ci_high * 1e6);
    if (csv != nullptr)
      std::fprintf(csv, "%s,%s,%d,%d,%s,%d,%d,%.4f,%.4f,%.4f\n", c.label.c_str(), neighborhood_name(c).c_str(), t, p,
                   variants[i].name.c_str(), s.samples, s.kept, s.median * 1e6, s.ci_low * 1e6, s.ci_high * 1e6);
  }
  if (csv != nullptr) std::fclose(csv);
}

}  // namespace cartbench
