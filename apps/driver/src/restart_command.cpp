#include "restart_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

namespace cartex::app {

namespace {

// The environment variable `name`, or "" when unset.
std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                           "0123456789_./=,:+-@%") == std::string::npos;
  if (safe) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string launcher_words(int size) {
  const std::string n = std::to_string(size);
  const bool open_mpi = !env("OMPI_COMM_WORLD_SIZE").empty();
  // Open MPI's mpiexec (ORTE) tells its ranks where it listens; srun's direct launch does not.
  const bool open_mpi_mpiexec = !env("OMPI_MCA_orte_hnp_uri").empty();
  if (env("SLURM_STEP_NUM_TASKS") == n && !open_mpi_mpiexec) return "srun -n " + n;
  if (open_mpi) {
    std::string words = "mpiexec -n " + n;
    if (env("OMPI_MCA_rmaps_base_oversubscribe") == "1") words += " --oversubscribe";
    if (::geteuid() == 0) words += " --allow-run-as-root";
    return words;
  }
  if (!env("PMI_SIZE").empty() || size > 1) return "mpiexec -n " + n;
  return "";
}

std::string restart_command(const Setup& s, const std::string& checkpoint) {
  const std::string launcher = launcher_words(s.procs.size());
  std::string cmd = (launcher.empty() ? "" : launcher + " ") + shell_quote(s.program.empty() ? s.app : s.program);
  for (const auto& f : s.input.files)
    if (s.input.texts.count(f) == 0) cmd += " " + shell_quote(f);
  for (const auto& u : s.input.unsets) cmd += " --unset " + shell_quote(u);
  for (const auto& o : s.input.sets) cmd += " --set " + shell_quote(o);
  return cmd + " --restart " + shell_quote(checkpoint);
}

}  // namespace cartex::app
