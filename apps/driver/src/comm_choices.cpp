#include "comm_choices.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cartex/core/error.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/ranks/allreduce.hpp"

namespace cartex::app {

void check_comm_choices(const core::Config& cfg, bool host_accessible_memory) {
  const halo::Backend* b = halo::find_backend(cfg.backend);
  if (!b)
    throw core::InputError(core::input_error_text(
        cfg, "comm.backend", fmt::format("unknown backend \"{}\" (expected one of: {})", cfg.backend, halo::backend_names())));
  if (b->zero_copy && !host_accessible_memory) {
    std::vector<std::string> usable;
    for (const auto& row : halo::backends())
      if (!row.zero_copy) usable.emplace_back(row.name);
    throw core::InputError(core::input_error_text(
        cfg, "comm.backend",
        fmt::format("backend {} hands the field's memory to MPI, but Kokkos' default memory space is not "
                    "host-accessible (expected one of: {})",
                    cfg.backend, fmt::join(usable, ", "))));
  }
  const auto names = ranks::algorithm_names();
  if (std::find(names.begin(), names.end(), cfg.allreduce) == names.end())
    throw core::InputError(core::input_error_text(cfg, "comm.allreduce",
                                      fmt::format("unknown allreduce algorithm \"{}\" (expected one of: {})", cfg.allreduce,
                                                  fmt::join(names, ", "))));
}

}  // namespace cartex::app
