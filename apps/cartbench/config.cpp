// Neighborhood, grid and metrics of a cartbench configuration.
#include <chrono>
#include <cstdio>

#include "cartex/core/mpi_check.hpp"
#include "cartex/cart/reduce_schedule.hpp"
#include "cartex/cart/schedule.hpp"
#include "cartex/cart/neighborhood_families.hpp"
#include "config.hpp"

namespace cartbench {

namespace cc = cartex::cart;

std::vector<int> offsets_of(const Config& c) {
  if (c.moore > 0) return cc::moore_offsets(c.d, c.moore);
  if (c.von_neumann > 0) return cc::von_neumann_offsets(c.d, c.von_neumann);
  return cc::dnf_offsets(c.d, c.n, c.f);
}

std::string neighborhood_name(const Config& c) {
  std::string s = "d" + std::to_string(c.d);
  if (c.moore > 0) return s + "moore" + std::to_string(c.moore);
  if (c.von_neumann > 0) return s + "vonneumann" + std::to_string(c.von_neumann);
  return s + "n" + std::to_string(c.n) + "f" + std::to_string(c.f);
}

std::vector<int> dims_of(const Config& c, int p) {
  if (!c.dims.empty()) return c.dims;
  std::vector<int> dims(static_cast<std::size_t>(c.d), 0);
  cartex::core::check_mpi(MPI_Dims_create(p, c.d, dims.data()), "MPI_Dims_create");
  return dims;
}

void print_metrics(const Config& c) {
  const auto t0 = std::chrono::steady_clock::now();
  const cc::Offsets offsets(c.d, offsets_of(c));
  const cc::Schedule a2a = cc::alltoall_schedule(offsets);
  const cc::Schedule ag = cc::allgather_schedule(offsets);
  const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const cc::Schedule direct = cc::direct_schedule(offsets, cc::Collective::alltoall);
  const double ratio = a2a.volume() > offsets.t()
                           ? static_cast<double>(offsets.t() - a2a.rounds()) / static_cast<double>(a2a.volume() - offsets.t())
                           : 0.0;
  std::printf("neighborhood %s: t = %d\n", neighborhood_name(c).c_str(), offsets.t());
  std::printf("%-20s %8s %8s %8s\n", "schedule", "phases", "C", "V");
  std::printf("%-20s %8d %8d %8lld\n", "direct", direct.phase_count(), direct.rounds(), direct.volume());
  std::printf("%-20s %8d %8d %8lld\n", "combining alltoall", a2a.phase_count(), a2a.rounds(), a2a.volume());
  std::printf("%-20s %8d %8d %8lld\n", "combining allgather", ag.phase_count(), ag.rounds(), ag.volume());
  std::printf("alltoall cut-off ratio (t-C)/(V-t) = %.3f\n", ratio);
  std::printf("schedule construction (alltoall + allgather): %.3f ms\n", build_ms);
}

}  // namespace cartbench
