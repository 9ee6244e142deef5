#include "placement.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cartex/core/error.hpp"
#include "cartex/core/agreement.hpp"
#include "cartex/core/mpi_check.hpp"

namespace cartex::app {

namespace {

ranks::NodeLayout read_layout(MPI_Comm comm) {
  // Detected or simulated, and how: the same on every rank, or the ranks would part ways here.
  core::agreed_env(comm, "CARTEX_RANKS_PER_NODE");
  core::agreed_env(comm, "CARTEX_RANK_MAPPING");
  try {
    return ranks::layout_from_env(comm);
  } catch (const std::invalid_argument& e) {
    throw core::InputError(fmt::format("environment: {}", e.what()));
  }
}

std::string layout_origin() {
  const char* q = std::getenv("CARTEX_RANKS_PER_NODE");
  if (q == nullptr || *q == '\0') return "detected (MPI_COMM_TYPE_SHARED)";
  const char* m = std::getenv("CARTEX_RANK_MAPPING");
  return fmt::format("simulated (CARTEX_RANKS_PER_NODE={}, CARTEX_RANK_MAPPING={})", q, m && *m ? m : "sequential");
}

// "0-1,4,6-7": ascending ranks as ranges.
std::string rank_ranges(const std::vector<int>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += fmt::format("{}{}", out.empty() ? "" : ",", ranks[i]);
    if (j > i) out += fmt::format("-{}", ranks[j]);
    i = j + 1;
  }
  return out;
}

// Every launch rank's MPI_Get_processor_name, gathered on rank 0 and written as "NAME (ranks
// RANGES), ...", nodes in order of their first rank: at most 8 nodes, then "and K more node(s)"; a
// node's ranks as a count when their ranges are many (round-robin over many nodes). Collective.
std::string host_list(MPI_Comm comm) {
  int rank = 0, size = 1, len = 0;
  core::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  core::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::vector<char> name(MPI_MAX_PROCESSOR_NAME, '\0');
  core::check_mpi(MPI_Get_processor_name(name.data(), &len), "MPI_Get_processor_name");
  std::vector<char> all(rank == 0 ? static_cast<size_t>(size) * MPI_MAX_PROCESSOR_NAME : 0);
  core::check_mpi(MPI_Gather(name.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, comm),
                  "MPI_Gather");
  if (rank != 0) return "";
  std::vector<std::pair<std::string, std::vector<int>>> nodes;
  for (int r = 0; r < size; ++r) {
    const char* n = all.data() + static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    const std::string host(n, strnlen(n, MPI_MAX_PROCESSOR_NAME));
    auto it = std::find_if(nodes.begin(), nodes.end(), [&](const auto& e) { return e.first == host; });
    if (it == nodes.end()) it = nodes.insert(nodes.end(), {host, {}});
    it->second.push_back(r);
  }
  constexpr size_t kShown = 8;
  std::string out;
  for (size_t i = 0; i < nodes.size() && i < kShown; ++i) {
    const auto& [host, ranks] = nodes[i];
    std::string which = rank_ranges(ranks);
    if (std::count(which.begin(), which.end(), ',') >= 4) which = fmt::format("{} in all", ranks.size());
    out += fmt::format("{}{} (rank{} {})", i ? ", " : "", host.empty() ? "?" : host, ranks.size() == 1 ? "" : "s", which);
  }
  if (nodes.size() > kShown) out += fmt::format(" and {} more node(s)", nodes.size() - kShown);
  return out;
}

// The halo blocks as the reordering sees them: per process offset, the largest block over ranks.
std::vector<ranks::HaloNeighbor> halo_neighbors(const halo::HaloPattern& p, MPI_Comm comm) {
  std::vector<long> bytes(p.blocks.size(), 0);
  for (const auto& s : p.sends()) bytes[static_cast<size_t>(s.block)] = static_cast<long>(s.cells->size() * sizeof(double));
  core::check_mpi(MPI_Allreduce(MPI_IN_PLACE, bytes.data(), static_cast<int>(bytes.size()), MPI_LONG, MPI_MAX, comm),
                  "MPI_Allreduce");
  std::vector<ranks::HaloNeighbor> out;
  for (size_t i = 0; i < p.blocks.size(); ++i)
    if (bytes[i] > 0) out.push_back({{p.blocks[i].offset[0], p.blocks[i].offset[1], p.blocks[i].offset[2]}, bytes[i]});
  return out;
}

}  // namespace

Placement::Placement(const core::Config& cfg, const core::ProcessGrid& procs, const halo::HaloPattern& pattern, MPI_Comm launch)
    : launch_(launch), launch_layout_(read_layout(launch)), layout_(launch_layout_), origin_(layout_origin()),
      hosts_(host_list(launch)) {
  const std::vector<int> dims(procs.dims.begin(), procs.dims.end());
  const std::vector<int> periods{cfg.grid.periodic[0], cfg.grid.periodic[1], cfg.grid.dim == 3 && cfg.grid.periodic[2]};
  identity_ = ranks::identity_assignment(dims);
  blocks_ = ranks::node_block_assignment(dims, periods, halo_neighbors(pattern, launch), launch_layout_);
  if (cfg.reorder && !blocks_.block.empty() && blocks_.rank_of_cell != identity_.rank_of_cell) {
    reordered_ = std::make_unique<ranks::ReorderedComm>(launch, blocks_);
    std::vector<int> node(blocks_.rank_of_cell.size());
    for (size_t g = 0; g < node.size(); ++g) node[g] = launch_layout_.node_of(blocks_.rank_of_cell[g]);
    layout_ = ranks::NodeLayout(node);
  }
  reduce_comm_ = std::shared_ptr<MPI_Comm>(new MPI_Comm(MPI_COMM_NULL), [](MPI_Comm* c) {
    if (*c != MPI_COMM_NULL) core::check_mpi_nothrow(MPI_Comm_free(c), "MPI_Comm_free");  // a deleter does not throw
    delete c;
  });
  core::check_mpi(MPI_Comm_dup(comm(), reduce_comm_.get()), "MPI_Comm_dup");
}

kernels::Allreduce Placement::allreduce(const std::string& algorithm) const {
  const ranks::Algorithm a = ranks::parse_algorithm(algorithm);
  if (a == ranks::Algorithm::mpi) return kernels::mpi_allreduce;
  // Ring on the private duplicate, so its messages never meet the halo exchange's; the caller's
  // communicator (the same group, the same ranks) only names the call.
  const ranks::Renaming renaming =
      a == ranks::Algorithm::ring ? ranks::Renaming::identity(layout_.size()) : ranks::Renaming::sequential_for(layout_);
  return [renaming, dup = reduce_comm_](const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm) {
    ranks::ring_allreduce(send, recv, count, type, op, *dup, renaming);
  };
}

std::string placement_text(const Placement& p, int dim) {
  const auto& l = p.launch_layout();
  std::string grid = "MPI order";
  if (p.reordered()) grid = fmt::format("node blocks {}", fmt::join(p.blocks().block.begin(), p.blocks().block.begin() + dim, "x"));
  return fmt::format("{} rank{} on {} node(s), {}, {}; grid in {}", l.size(), l.size() == 1 ? "" : "s", l.nodes(),
                     ranks::to_string(l.mapping()), p.origin(), grid);
}

ranks::Traffic exchange_traffic(const halo::HaloPattern& p, const ranks::NodeLayout& launch_layout,
                                const ranks::GridAssignment& assignment, MPI_Comm comm) {
  const auto node = [&](int position) { return launch_layout.node_of(assignment.rank_of_cell[static_cast<size_t>(position)]); };
  std::int64_t t[4] = {0, 0, 0, 0};  // messages, bytes, inter-node messages, inter-node bytes
  for (const auto& s : p.sends()) {
    if (s.cells->empty()) continue;
    const std::int64_t bytes = static_cast<std::int64_t>(s.cells->size() * sizeof(double));
    const bool inter = node(p.rank) != node(s.rank);
    t[0] += 1;
    t[1] += bytes;
    t[2] += inter ? 1 : 0;
    t[3] += inter ? bytes : 0;
  }
  core::check_mpi(MPI_Allreduce(MPI_IN_PLACE, t, 4, MPI_INT64_T, MPI_SUM, comm), "MPI_Allreduce");
  return {t[0], t[1], t[2], t[3]};
}

}  // namespace cartex::app
