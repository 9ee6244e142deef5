#include "cartex/entry/kokkos_args.hpp"

#include <mpi.h>

#include <cstring>

#include "cartex/core/mpi_check.hpp"

namespace cartex::entry {
namespace {

bool is_help(const char* arg) { return std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0; }

}  // namespace

KokkosArgs::KokkosArgs(int argc, char** argv) {
  const int rank = core::comm_rank(MPI_COMM_WORLD);
  bool help = false;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && is_help(argv[i])) {
      help = true;
      continue;
    }
    if (i > 0 && std::strcmp(argv[i], "--kokkos-help") == 0) {
      kokkos_help_ = true;
      if (rank != 0) continue;
    }
    args_.push_back(argv[i]);
  }
  int kokkos_argc = static_cast<int>(args_.size());
  args_.push_back(nullptr);
  kokkos_.emplace(kokkos_argc, args_.data());
  // Kokkos removed its own arguments and left kokkos_argc of them in front.
  args_.resize(static_cast<std::size_t>(kokkos_argc));
  static char help_flag[] = "--help";
  if (help) args_.push_back(help_flag);
  args_.push_back(nullptr);
}

}  // namespace cartex::entry
