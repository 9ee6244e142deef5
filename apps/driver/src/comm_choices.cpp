#include "comm_choices.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cartex/core/error.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/ranks/allreduce.hpp"

namespace cartex::app {

void check_backend_choice(const core::Config& cfg, const halo::Backend* b, const halo::MpiMemory& memory) {
  if (!b)
    throw core::InputError(core::input_error_text(
        cfg, "comm.backend", fmt::format("unknown backend \"{}\" (expected one of: {})", cfg.backend, halo::backend_names())));
  std::vector<std::string> available, packed;
  for (const auto& row : halo::backends()) {
    if (row.unavailable) continue;
    available.emplace_back(row.name);
    if (!row.zero_copy) packed.emplace_back(row.name);
  }
  if (b->unavailable)
    throw core::InputError(core::input_error_text(
        cfg, "comm.backend",
        fmt::format("backend {} is unavailable: {} (expected one of: {})", cfg.backend, b->unavailable,
                    fmt::join(available, ", "))));
  if (b->zero_copy && !memory.zero_copy)
    throw core::InputError(core::input_error_text(
        cfg, "comm.backend",
        fmt::format("backend {} hands the field's memory to MPI, but {} (expected one of: {})", cfg.backend,
                    memory.refusal, fmt::join(packed, ", "))));
}

void check_comm_choices(const core::Config& cfg, const halo::MpiMemory& memory) {
  check_backend_choice(cfg, halo::find_backend(cfg.backend), memory);
  const auto names = ranks::algorithm_names();
  if (std::find(names.begin(), names.end(), cfg.allreduce) == names.end())
    throw core::InputError(core::input_error_text(cfg, "comm.allreduce",
                                      fmt::format("unknown allreduce algorithm \"{}\" (expected one of: {})", cfg.allreduce,
                                                  fmt::join(names, ", "))));
}

}  // namespace cartex::app
