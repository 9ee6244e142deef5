// The registry of halo backends (backends.hpp): one row per backend. Each backend's make and predict
// functions live in its own file, src/backends/NAME.cpp.
#include "cartex/halo/backends.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace cartex::halo {

// Defined in src/backends/NAME.cpp.
std::unique_ptr<HaloPlan> make_p2p(const PlanInputs&);
std::optional<HaloStats> predict_p2p(const PlanInputs&);
std::unique_ptr<HaloPlan> make_mpi_neighbor_alltoallw(const PlanInputs&);
std::optional<HaloStats> predict_mpi_neighbor_alltoallw(const PlanInputs&);
std::unique_ptr<HaloPlan> make_mpi_neighbor_alltoallw_init(const PlanInputs&);
std::optional<HaloStats> predict_mpi_neighbor_alltoallw_init(const PlanInputs&);
const char* mpi_neighbor_alltoallw_init_unavailable();
std::unique_ptr<HaloPlan> make_cart_direct(const PlanInputs&);
std::optional<HaloStats> predict_cart_direct(const PlanInputs&);
std::unique_ptr<HaloPlan> make_cart_combining(const PlanInputs&);
std::optional<HaloStats> predict_cart_combining(const PlanInputs&);
std::unique_ptr<HaloPlan> make_cart_combining_packed(const PlanInputs&);
std::optional<HaloStats> predict_cart_combining_packed(const PlanInputs&);
std::unique_ptr<HaloPlan> make_cart_forwarding(const PlanInputs&);
std::optional<HaloStats> predict_cart_forwarding(const PlanInputs&);
std::unique_ptr<HaloPlan> make_graph_combining(const PlanInputs&);
std::unique_ptr<HaloPlan> make_p2p_persistent(const PlanInputs&);
std::optional<HaloStats> predict_p2p_persistent(const PlanInputs&);
std::unique_ptr<HaloPlan> make_auto(const PlanInputs&);

const std::vector<Backend>& backends() {
  // name, description, zero-copy, overlaps, buffers, per dimension, make, predict (nullptr: the stats
  // need the plan), unavailable (left out: available)
  static const std::vector<Backend> table{
      {"p2p", "Kokkos pack, MPI_Isend/MPI_Irecv per neighbor, Kokkos unpack", false, true, 2, false, make_p2p, predict_p2p},
      {"mpi_neighbor_alltoallw", "MPI dist-graph communicator + MPI_Ineighbor_alltoallw, derived datatypes", true, true, 0,
       false, make_mpi_neighbor_alltoallw, predict_mpi_neighbor_alltoallw},
      {"cart_direct", "CX_Cart_alltoallw plan, direct schedule (ICPP'19 Listing 4)", true, true, 0, false, make_cart_direct,
       predict_cart_direct},
      {"cart_combining", "CX_Cart_alltoallw plan, message combining (ICPP'19 Algorithm 1)", true, true, 2, false,
       make_cart_combining, predict_cart_combining},
      {"cart_combining_packed", "the combining schedule on contiguous buffers packed by Kokkos", false, true, 2,
       true, make_cart_combining_packed, predict_cart_combining_packed},
      {"cart_forwarding", "dimension-ordered exchange that forwards received halo cells", false, true, 2, true,
       make_cart_forwarding, predict_cart_forwarding},
      {"graph_combining", "general dist graph + comm/graph message combining (HiPC'17), packed", false, false, 2,
       false, make_graph_combining, nullptr},
      {"p2p_persistent", "p2p on persistent requests (MPI_Send_init/MPI_Recv_init, MPI_Startall)", false, true, 2,
       false, make_p2p_persistent, predict_p2p_persistent},
      {"mpi_neighbor_alltoallw_init", "mpi_neighbor_alltoallw on one persistent request (MPI-4 MPI_Neighbor_alltoallw_init)",
       true, true, 0, false, make_mpi_neighbor_alltoallw_init, predict_mpi_neighbor_alltoallw_init,
       mpi_neighbor_alltoallw_init_unavailable()},
      {"auto", "times the others at creation and keeps the fastest", false, false, 4, true, make_auto, nullptr},
  };
  return table;
}

const Backend* find_backend(const std::string& name) {
  for (const Backend& b : backends())
    if (name == b.name) return &b;
  return nullptr;
}

std::string backend_names() {
  std::string out;
  for (const Backend& b : backends()) out += (out.empty() ? "" : ", ") + std::string(b.name);
  return out;
}

std::string backends_table() {
  std::string out = fmt::format("# {:<26} {:<10} {:<9} {}\n", "backend", "memory", "start", "description");
  for (const Backend& b : backends())
    out += b.unavailable ? fmt::format("{:<28} unavailable: {}\n", b.name, b.unavailable)
                         : fmt::format("{:<28} {:<10} {:<9} {}\n", b.name, b.zero_copy ? "zero-copy" : "packed",
                                       b.overlaps ? "overlaps" : "blocking", b.description);
  return out;
}

std::optional<std::string> refusal(const Backend& b, const MpiMemory& memory) {
  if (b.unavailable) return fmt::format("unavailable: {}", b.unavailable);
  if (b.zero_copy && !memory.zero_copy) return fmt::format("zero-copy, refused: {}", memory.refusal);
  return std::nullopt;
}

bool runs_here(const Backend& b, core::GpuAwareMpiInput setting) { return !refusal(b, mpi_memory(setting)); }

const HaloGeometry& PlanInputs::need_geometry(const char* backend) const {
  if (!geometry) throw std::invalid_argument(fmt::format("halo backend \"{}\" needs the halo geometry", backend));
  return *geometry;
}

std::unique_ptr<HaloPlan> make_halo_plan(const std::string& name, const PlanInputs& inputs) {
  const Backend* b = find_backend(name);
  if (!b) throw std::invalid_argument(fmt::format("unknown halo backend \"{}\" (expected one of: {})", name, backend_names()));
  if (inputs.fields < 1)
    throw std::invalid_argument(fmt::format("halo backend {}: a plan exchanges at least one field, not {}", name, inputs.fields));
  if (b->unavailable) throw std::invalid_argument(fmt::format("halo backend {} is unavailable: {}", name, b->unavailable));
  if (const MpiMemory memory = inputs.memory(); b->zero_copy && !memory.zero_copy)
    throw std::invalid_argument(fmt::format("halo backend {} hands the field's memory to MPI, but {}; use a packed backend "
                                            "such as p2p or cart_combining_packed",
                                            name, memory.refusal));
  return b->make(inputs);
}

}  // namespace cartex::halo
