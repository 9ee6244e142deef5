#pragma once
// Kokkos for a cartex main (heat3d, wave3d, the benchmarks), with one help convention: Kokkos prints
// its own option list when it sees --help, so --help is held back from Kokkos and given to the
// program's parser alone, and --kokkos-help goes to Kokkos alone (on rank 0, so the list is printed
// once), after which the program parses nothing and exits 0.

#include <Kokkos_Core.hpp>

#include <optional>
#include <vector>

namespace cartex::entry {

// Initialises Kokkos for its lifetime (MPI must be initialised). Not copyable.
class KokkosArgs {
 public:
  KokkosArgs(int argc, char** argv);
  KokkosArgs(const KokkosArgs&) = delete;
  KokkosArgs& operator=(const KokkosArgs&) = delete;

  // --kokkos-help was given: Kokkos has printed its options; the program should exit 0.
  bool kokkos_help() const { return kokkos_help_; }
  // The arguments Kokkos left (program name first), --help given back, for the program's parser.
  int argc() const { return static_cast<int>(args_.size()) - 1; }
  char** argv() { return args_.data(); }

 private:
  bool kokkos_help_ = false;
  std::vector<char*> args_;  // null-terminated
  std::optional<Kokkos::ScopeGuard> kokkos_;
};

}  // namespace cartex::entry
