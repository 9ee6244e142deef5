#include "restart_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace cartex::app {

namespace {

// The environment variable `name`, or "" when unset.
std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// argv[0] of process `pid` ("" when it cannot be read).
std::string argv0(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string first;
  std::getline(in, first, '\0');
  return first;
}

// The parent of process `pid` (0 when it cannot be read): the field after the ")" that ends the
// command name in /proc/PID/stat is the state, then the parent's pid.
pid_t parent_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  char state = 0;
  long ppid = 0;
  return std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 ? static_cast<pid_t>(ppid) : 0;
}

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// Hydra's mpiexec as its user invoked it (e.g. "mpiexec.mpich" where Open MPI's is the default
// mpiexec): a rank's ancestor hydra_pmi_proxy (its parent, or a wrapper shell's) was started by
// mpiexec itself on the launch node; "" elsewhere (an ssh-started proxy on another node).
std::string hydra_mpiexec() {
  pid_t pid = ::getppid();
  for (int level = 0; level < 4 && pid > 1; ++level, pid = parent_of(pid)) {
    if (base_name(argv0(pid)) != "hydra_pmi_proxy") continue;
    const std::string launcher = argv0(parent_of(pid));
    const std::string name = base_name(launcher);
    return name.rfind("mpiexec", 0) == 0 || name.rfind("mpirun", 0) == 0 ? launcher : "";
  }
  return "";
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
  if (!env("PMI_SIZE").empty() || size > 1) {
    const std::string hydra = hydra_mpiexec();
    return (hydra.empty() ? std::string("mpiexec") : shell_quote(hydra)) + " -n " + n;
  }
  return "";
}

std::string restart_command(const Setup& s, const std::string& checkpoint) {
  const std::string launcher = launcher_words(s.procs.size());
  std::string cmd = (launcher.empty() ? "" : launcher + " ") + shell_quote(s.program.empty() ? s.app : s.program);
  if (s.input.origin == core::InputSources::Origin::kFiles)
    for (const auto& f : s.input.files) cmd += " " + shell_quote(f);
  for (const auto& u : s.input.unsets) cmd += " --unset " + shell_quote(u);
  for (const auto& o : s.input.sets) cmd += " --set " + shell_quote(o);
  return cmd + " --restart " + shell_quote(checkpoint);
}

}  // namespace cartex::app
