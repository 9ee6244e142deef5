#include "resources.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cartex/core/agreement.hpp"
#include "cartex/core/error.hpp"
#include "cartex/halo/backends.hpp"

namespace cartex::app {

namespace {

constexpr double kWord = sizeof(double);  // field values and buffers
constexpr double kRun = 4 * sizeof(long);  // a halo list's run: a strided run (CellList) or a device copy run
constexpr double kDistance = 2;           // a step-distance table entry (std::uint16_t)

void check_mpi(int rc, const char* call) {
  if (rc != MPI_SUCCESS) throw core::Error(fmt::format("{} failed (error {})", call, rc));
}

// Send and receive buffers of `backend` for h halo cells per rank, as its registry row says: packed
// backends hold one of each (combining and forwarding ones pass a block through up to `dim` rounds,
// padded to the largest over ranks); zero-copy ones use MPI datatypes over the field, cart_combining
// pads from a scratch array; auto keeps the best candidate while it times the next. Staged packed
// buffers (`stage`, comm.gpu_aware_mpi) have a host copy each.
double buffer_bytes(const std::string& backend, double h, int dim, bool stage) {
  const halo::Backend* b = halo::find_backend(backend);
  if (!b) return 0;  // refused by the input check before this
  return b->buffers * (b->per_dimension ? dim : 1) * h * kWord * (stage && !b->zero_copy ? 2 : 1);
}

// "1234 B (1.2 KiB)": the exact bytes, and a readable size from 1 KiB on.
std::string bytes_text(double b) {
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  double v = b;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  return u == 0 ? fmt::format("{:.0f} B", b) : fmt::format("{:.0f} B ({:.1f} {})", b, v, unit[u]);
}

// "1K", "64M", "2G", "1T" or plain bytes; -1 when malformed.
double parse_bytes(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !(v > 0)) return -1;
  const std::string suffix(end);
  const std::string units = "KMGT";
  if (suffix.empty()) return v;
  const auto at = units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0]))));
  if (suffix.size() != 1 || at == std::string::npos) return -1;
  double f = v;
  for (size_t i = 0; i <= at; ++i) f *= 1024;
  return f;
}

// Bytes this node can still give: the smaller of MemAvailable (or sysconf) and the cgroup's room.
std::pair<double, std::string> available_memory() {
  double avail = -1;
  std::string source = "MemAvailable in /proc/meminfo";
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);)
    if (line.rfind("MemAvailable:", 0) == 0) avail = 1024.0 * std::strtod(line.c_str() + 13, nullptr);
  if (!(avail > 0)) {
    avail = static_cast<double>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    source = "available physical pages (sysconf)";
  }
  std::ifstream max_file("/sys/fs/cgroup/memory.max"), current_file("/sys/fs/cgroup/memory.current");
  std::string max_text;
  double current = 0;
  if (max_file >> max_text && max_text != "max" && current_file >> current) {
    const double room = std::strtod(max_text.c_str(), nullptr) - current;
    if (room < avail) avail = room, source = "the cgroup's memory.max less memory.current";
  }
  return {avail, source};
}

// The node limit on this rank: CARTEX_MEMORY_LIMIT if set, else the available memory.
std::pair<double, std::string> node_limit() {
  const char* env = std::getenv("CARTEX_MEMORY_LIMIT");
  if (env == nullptr || *env == '\0') return available_memory();
  const double v = parse_bytes(env);
  if (v < 0)
    throw core::InputError(fmt::format("CARTEX_MEMORY_LIMIT: expected bytes per node (a number with an optional K, M, G "
                                 "or T suffix), got \"{}\"",
                                 env));
  return {v, "CARTEX_MEMORY_LIMIT"};
}

// The most ranks on one node of `comm`. Collective.
int max_ranks_per_node(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int on_node = 1;
  check_mpi(MPI_Comm_size(node, &on_node), "MPI_Comm_size");
  check_mpi(MPI_Comm_free(&node), "MPI_Comm_free");
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &on_node, 1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce");
  return on_node;
}

// Fields laid out for the deepest k of `ks`; a plan, halo lists and a geometry for each (auto keeps
// every k it measures until it has chosen).
ResourceEstimate estimate(const core::Config& cfg, int fields, int state_fields, const core::Decomposition& decomp,
                          const std::vector<int>& ks) {
  const core::GlobalGrid& g = decomp.grid();
  const auto& dims = decomp.procs().dims;
  ResourceEstimate e;
  for (const int k : ks) {
    const core::HaloWidths w = halo::halo_widths(g, core::halo_stencil(cfg), k);
    double block = 1, with_halo = 1, reach = 1, walk_block = 1, rows = 1, halo_rows = 1;
    for (int d = 0; d < 3; ++d) {
      const double smallest = std::max(1L, g.n[d] / dims[d]), largest = (g.n[d] + dims[d] - 1) / dims[d];
      block *= largest;
      with_halo *= largest + w.lo[d] + w.hi[d];
      reach *= w.lo[d] + w.hi[d] + 1;
      walk_block *= 2 * largest - smallest + w.lo[d] + w.hi[d];  // HaloGeometry's block walk region
      if (d > 0) rows *= largest, halo_rows *= largest + w.lo[d] + w.hi[d];
    }
    // Rows (x-lines) holding halo cells: those wholly in the halo, and the block's rows with an x halo.
    halo_rows += rows * ((w.lo[0] > 0) + (w.hi[0] > 0) - 1);
    const double halo_cells = with_halo - block;
    e.block_cells = block;
    if (halo_cells >= e.halo_cells) {
      e.halo_cells = halo_cells;
      // The state and the next (or previous) level, and the field coefficients.
      e.field_bytes = (2 * fields + core::field_coefficient_count(cfg)) * with_halo * kWord;
    }
    e.buffer_bytes += buffer_bytes(cfg.backend, halo_cells, g.dim, halo::mpi_memory(cfg.gpu_aware_mpi).stage);
    e.index_bytes += 2 * 2 * halo_rows * kRun;  // send and receive lists, in the pattern and in the plan: a run per row at most
    e.walk_cells += reach + walk_block;
  }
  e.geometry_bytes = e.walk_cells * kDistance;
  e.staging_bytes = state_fields * e.block_cells * kWord;
  return e;
}

// This process's resident memory (VmRSS of /proc/self/status; 0 where there is none).
double resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return 1024.0 * std::strtod(line.c_str() + 6, nullptr);
  return 0;
}

}  // namespace

std::vector<int> within_memory_growth(const core::Config& cfg, int fields, int state_fields, const core::Decomposition& decomp,
                                      MPI_Comm launch, std::vector<int> ks) {
  // The runtime's own memory (MPI, Kokkos, libraries) counts: a deeper halo on a small block costs a
  // few KiB, which no run notices. Agreed: every rank keeps the same candidates.
  double base = resident_bytes();
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &base, 1, MPI_DOUBLE, MPI_MAX, launch), "MPI_Allreduce");
  const double k1 = base + estimate(cfg, fields, state_fields, decomp, {1}).rank_bytes();
  while (ks.size() > 1 && base + estimate(cfg, fields, state_fields, decomp, {ks.back()}).rank_bytes() > kAutoMemoryGrowth * k1)
    ks.pop_back();
  return ks;
}

ResourceEstimate check_resources(const core::Config& cfg, int fields, int state_fields, const core::Decomposition& decomp, MPI_Comm launch,
                                 const std::vector<int>& ks) {
  ResourceEstimate e = estimate(cfg, fields, state_fields, decomp, ks);
  e.ranks_on_node = max_ranks_per_node(launch);
  // A malformed CARTEX_MEMORY_LIMIT on one rank fails every rank (core/agreement.hpp); the smallest
  // limit of any node decides, so that every rank decides alike.
  std::pair<double, std::string> own;
  core::agree(launch, [&] { own = node_limit(); });
  auto [limit, source] = own;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &limit, 1, MPI_DOUBLE, MPI_MIN, launch), "MPI_Allreduce");
  e.node_limit = limit;
  e.limit_source = source;
  const bool memory = e.node_bytes() > e.node_limit, work = e.walk_cells > kMaxWalkCells;
  if (!memory && !work) return e;
  // The halo dominates when its share of the memory exceeds the blocks'.
  const double halo_share = e.halo_cells * 2 * kWord + e.buffer_bytes + e.index_bytes + e.geometry_bytes;
  const bool deep = *std::max_element(ks.begin(), ks.end()) > 1;
  const std::string key = deep && halo_share > e.rank_bytes() - halo_share ? "halo.steps_per_exchange" : "grid.n";
  const std::string what =
      memory ? fmt::format("the run needs an estimated {} on a node ({} rank(s) x {}: fields {}, halo buffers {}, "
                           "halo lists {}, geometry {}, output staging {}), more than the {} of {}; use more "
                           "nodes, a smaller grid or fewer steps per exchange (see docs/input.md, resource limits)",
                           bytes_text(e.node_bytes()), e.ranks_on_node, bytes_text(e.rank_bytes()), bytes_text(e.field_bytes),
                           bytes_text(e.buffer_bytes), bytes_text(e.index_bytes), bytes_text(e.geometry_bytes),
                           bytes_text(e.staging_bytes), bytes_text(e.node_limit), e.limit_source)
             : fmt::format("setting up the halo geometry would walk an estimated {:.0f} cells per rank, more than the "
                           "limit of {:.0f}; use more ranks, a smaller grid or fewer steps per exchange",
                           e.walk_cells, kMaxWalkCells);
  throw core::InputError(core::input_error_text(cfg, key, what));
}

std::string resources_text(const ResourceEstimate& e) {
  std::ostringstream s;
  s << "# resources per rank (largest block, estimated before set-up; buffers and lists are upper bounds)\n";
  s << fmt::format("  halo cells              {:.0f}\n", e.halo_cells);
  s << fmt::format("  field bytes             {}\n", bytes_text(e.field_bytes));
  s << fmt::format("  buffer bytes            {}\n", bytes_text(e.buffer_bytes));
  s << fmt::format("  halo list bytes         {}\n", bytes_text(e.index_bytes));
  s << fmt::format("  geometry bytes          {}\n", bytes_text(e.geometry_bytes));
  s << fmt::format("  output staging bytes    {}\n", bytes_text(e.staging_bytes));
  s << fmt::format("  total bytes per rank    {}\n", bytes_text(e.rank_bytes()));
  s << fmt::format("  geometry walk cells     {:.0f} (limit {:.0f})\n", e.walk_cells, kMaxWalkCells);
  s << fmt::format("  node total bytes        {} ({} rank(s) on the fullest node; limit {} from {})\n",
                   bytes_text(e.node_bytes()), e.ranks_on_node, bytes_text(e.node_limit), e.limit_source);
  return s.str();
}

}  // namespace cartex::app
