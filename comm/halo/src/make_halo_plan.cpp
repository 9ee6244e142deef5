#include <stdexcept>

#include "cartex/halo/halo_plan.hpp"
#include "p2p_plan.hpp"

namespace cartex {

std::unique_ptr<HaloPlan> make_halo_plan(const std::string& backend, const HaloRegions& regions, MPI_Comm comm) {
  if (backend == "p2p") return std::make_unique<P2PHaloPlan>(regions, comm);
  throw std::invalid_argument("unknown halo backend \"" + backend + "\"");
}

}  // namespace cartex
