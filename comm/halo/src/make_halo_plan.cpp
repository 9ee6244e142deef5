#include <set>
#include <stdexcept>

#include "auto_plan.hpp"
#include "cart_plans.hpp"
#include "cartex/halo/forwarding.hpp"
#include "cartex/halo/halo_plan.hpp"
#include "forwarding_plan.hpp"
#include "graph_plan.hpp"
#include "neighbor_alltoallw_plan.hpp"
#include "p2p_plan.hpp"

namespace cartex {

std::vector<std::string> halo_backends() {
  return {"p2p",         "mpi_neighbor_alltoallw", "cart_direct", "cart_combining", "cart_combining_packed",
          "cart_forwarding", "graph_combining",         "auto"};
}

bool backend_is_zero_copy(const std::string& backend) {
  return backend == "mpi_neighbor_alltoallw" || backend == "cart_direct" || backend == "cart_combining";
}

HaloStats predict_halo_stats(const std::string& backend, const HaloGeometry& geo, const HaloPattern& p,
                             const std::vector<long>* slots) {
  HaloStats s;
  const long word = static_cast<long>(sizeof(double));
  if (backend == "p2p" || backend == "mpi_neighbor_alltoallw" || backend == "cart_direct") {
    s.messages = p.send_messages();
    s.bytes = p.send_cells() * word;
    // The direct Cartesian schedule has one round per non-zero offset (ICPP'19 Listing 4).
    s.rounds = backend == "cart_direct" ? static_cast<int>(p.neighbors.size()) : 1;
  } else if (backend == "cart_combining" || backend == "cart_combining_packed") {
    // Algorithm 1: one round per distinct non-zero coordinate per dimension (C = sum_k C_k), one
    // message per round, block i sent once per non-zero coordinate (V = sum_i z_i, Proposition 3.2).
    for (int d = 0; d < 3; ++d) {
      std::set<int> values;
      for (const auto& o : p.neighbors)
        if (o[d] != 0) values.insert(o[d]);
      s.rounds += static_cast<int>(values.size());
    }
    s.messages = s.rounds;
    long cells = 0;
    for (size_t i = 0; i < p.neighbors.size(); ++i) {
      if (p.target[i] == MPI_PROC_NULL) continue;
      const auto& o = p.neighbors[i];
      const long size = slots ? (*slots)[i] : static_cast<long>(p.send[i].size());
      cells += ((o[0] != 0) + (o[1] != 0) + (o[2] != 0)) * size;
    }
    s.bytes = cells * word;
  } else if (backend == "cart_forwarding") {
    for (const auto& ph : make_forwarding_schedule(geo, p)) {
      ++s.rounds;
      s.messages += static_cast<long>(ph.sends.size());
      for (const auto& m : ph.sends) s.bytes += static_cast<long>(m.cells.size()) * word;
    }
  } else {
    // graph_combining's messages come from a pattern built collectively; ask the plan.
    throw std::invalid_argument("no stats without a plan for halo backend \"" + backend + "\"");
  }
  return s;
}

std::unique_ptr<HaloPlan> make_halo_plan(const std::string& backend, const HaloGeometry& geo, const HaloPattern& pattern,
                                         MPI_Comm comm) {
  if (backend == "p2p") return std::make_unique<detail::P2PHaloPlan>(pattern, comm);
  if (backend == "mpi_neighbor_alltoallw") return std::make_unique<detail::NeighborAlltoallwPlan>(pattern, comm);
  if (backend == "cart_direct") return std::make_unique<detail::CartZeroCopyPlan>(geo, pattern, comm, false);
  if (backend == "cart_combining") return std::make_unique<detail::CartZeroCopyPlan>(geo, pattern, comm, true);
  if (backend == "cart_combining_packed") return std::make_unique<detail::CartPackedPlan>(geo, pattern, comm);
  if (backend == "cart_forwarding") return std::make_unique<detail::ForwardingPlan>(geo, pattern, comm);
  if (backend == "graph_combining") return std::make_unique<detail::GraphCombiningPlan>(pattern, comm);
  if (backend == "auto") return detail::make_auto_plan(geo, pattern, comm);
  throw std::invalid_argument("unknown halo backend \"" + backend + "\"");
}

}  // namespace cartex
