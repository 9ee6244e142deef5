// Kokkos for a benchmark's main, with heat3d's help convention (apps/driver/src/app_main.cpp): Kokkos
// prints its own option list when it sees --help, so --help is held back from Kokkos and given to the
// benchmark's parser alone, and --kokkos-help goes to Kokkos alone (on rank 0, so the list is printed
// once), after which the benchmark parses nothing and exits 0.
#pragma once

#include <Kokkos_Core.hpp>

#include <optional>
#include <vector>

namespace CLI {
class App;
}

namespace benchstats {

// Initialises Kokkos for its lifetime (MPI must be initialised). Not copyable.
class KokkosArgs {
 public:
  KokkosArgs(int argc, char** argv);
  KokkosArgs(const KokkosArgs&) = delete;
  KokkosArgs& operator=(const KokkosArgs&) = delete;

  // --kokkos-help was given: Kokkos has printed its options; the benchmark should exit 0.
  bool kokkos_help() const { return kokkos_help_; }
  // The arguments Kokkos left (program name first), --help given back, for the benchmark's parser.
  int argc() const { return static_cast<int>(args_.size()) - 1; }
  char** argv() { return args_.data(); }

 private:
  bool kokkos_help_ = false;
  std::vector<char*> args_;  // null-terminated
  std::optional<Kokkos::ScopeGuard> kokkos_;
};

// Adds --kokkos-help to a benchmark's own options, so that its --help lists it.
void add_kokkos_help_flag(CLI::App& app);

}  // namespace benchstats
