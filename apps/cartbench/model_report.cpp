// Model predictions for process counts beyond this machine: the linear model of ICPP'19 section
// 3.1 summed over each schedule's rounds, and a two-level variant pricing a round with the
// inter-node alpha, beta when any process's partner in it lies on another node (ppn consecutive
// ranks per node).
#include <fmt/core.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

#include "cartex/core/mpi_check.hpp"
#include "cartex/cart/model.hpp"
#include "cartex/cart/schedule.hpp"
#include "config.hpp"

namespace cartbench {
namespace {

namespace cc = cartex::cart;

// Parses "alpha=..,beta=..[,alpha_inter=..,beta_inter=..,ppn=..]".
std::map<std::string, double> parse(const std::string& text) {
  std::map<std::string, double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) continue;
    out[item.substr(0, eq)] = std::strtod(item.c_str() + eq + 1, nullptr);
  }
  return out;
}

}  // namespace

void run_model(const Config& c) {
  int rank = 0;
  cartex::core::check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  if (rank != 0) return;
  auto kv = parse(c.model);
  if (!kv.count("alpha") || !kv.count("beta")) {
    std::fprintf(stderr, "--model needs alpha=SECONDS,beta=SECONDS_PER_BYTE\n");
    std::exit(2);
  }
  const cc::LinearModel on{kv["alpha"], kv["beta"]};
  const bool two_level = kv.count("alpha_inter") && kv.count("beta_inter");
  const cc::TwoLevelModel tl{on, {two_level ? kv["alpha_inter"] : on.alpha, two_level ? kv["beta_inter"] : on.beta},
                             kv.count("ppn") ? static_cast<int>(kv["ppn"]) : 32};
  const std::vector<int> dims = dims_of(c, c.procs);
  const std::vector<int> periods(dims.size(), c.mesh ? 0 : 1);
  const cc::Offsets off(c.d, offsets_of(c));
  const cc::Schedule direct = cc::direct_schedule(off, cc::Collective::alltoall);
  const cc::Schedule a2a = cc::alltoall_schedule(off), ag = cc::allgather_schedule(off);
  std::string grid;
  for (std::size_t k = 0; k < dims.size(); ++k) grid += (k ? "x" : "") + std::to_string(dims[k]);
  fmt::print("model of {} (t={}) on {} processes ({}), alpha={:g} s beta={:g} s/B", neighborhood_name(c), off.t(),
             c.procs, grid, on.alpha, on.beta);
  if (two_level) fmt::print(", inter-node alpha={:g} beta={:g}, ppn={}", tl.inter_node.alpha, tl.inter_node.beta, tl.ppn);
  fmt::print("\n{:<10} {:>5} {:<10} {:>6} {:>7} {:>14} {:>14}\n", "op", "m", "schedule", "C", "V", "linear[us]",
             two_level ? "two-level[us]" : "");
  std::FILE* csv = c.csv.empty() ? nullptr : std::fopen(c.csv.c_str(), "w");
  if (csv != nullptr) std::fprintf(csv, "label,neighborhood,t,procs,grid,op,m,schedule,C,V,linear_us,two_level_us\n");
  for (int m : c.m) {
    const double bytes = static_cast<double>(m) * sizeof(int);
    const struct {
      const char* op;
      const char* name;
      const cc::Schedule* s;
    } rows[] = {{"alltoall", "direct", &direct}, {"alltoall", "combining", &a2a}, {"allgather", "direct", &direct},
                {"allgather", "combining", &ag}};
    for (const auto& row : rows) {
      const double lin = cc::predict(*row.s, bytes, on) * 1e6;
      const double two = two_level ? cc::predict_two_level(*row.s, bytes, dims, periods, tl) * 1e6 : 0.0;
      fmt::print("{:<10} {:>5} {:<10} {:>6} {:>7} {:>14.2f} {:>14.2f}\n", row.op, m, row.name, row.s->rounds(),
                 row.s->volume(), lin, two);
      if (csv != nullptr)
        std::fprintf(csv, "%s,%s,%d,%d,%s,%s,%d,%s,%d,%lld,%.4f,%.4f\n", c.label.c_str(), neighborhood_name(c).c_str(),
                     off.t(), c.procs, grid.c_str(), row.op, m, row.name, row.s->rounds(), row.s->volume(), lin, two);
    }
    int nonzero = 0;
    for (int i = 0; i < off.t(); ++i) nonzero += off.nonzeros(i) != 0;
    fmt::print("  alltoall cut-off m < {:.1f} ints\n",
               cc::combining_cutoff_bytes(nonzero, a2a.rounds(), a2a.volume(), on) / sizeof(int));
  }
  if (csv != nullptr) std::fclose(csv);
}

}  // namespace cartbench
