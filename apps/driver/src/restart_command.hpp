#pragma once
// The shell command that continues a stopped run from its checkpoint (printed in the summary and
// written to the restart marker).
#include <string>

#include "driver.hpp"

namespace cartex::app {

// The command that continues this run from `checkpoint`, to be run in the directory this run was
// started in: the launcher and rank count as this run was started (launcher_words), the program as
// invoked, the same input files and overrides (an input that itself came from a checkpoint is not
// named: the new checkpoint embeds the resolved input). Reads this rank's environment.
std::string restart_command(const Setup& s, const std::string& checkpoint);

// The launcher that started `size` ranks, as the environment of this rank tells, with the rank count:
// "srun -n N" (Slurm's srun: SLURM_STEP_NUM_TASKS is the MPI size, and Open MPI's mpiexec did not
// start us), "mpiexec -n N" (Open MPI: OMPI_COMM_WORLD_SIZE; MPICH/Hydra: PMI_SIZE, with Hydra's
// mpiexec as invoked, e.g. mpiexec.mpich, when its process is this rank's ancestor; any other
// multi-rank run), nothing for a single rank started without a launcher. Open MPI's mpiexec gets
// --oversubscribe when this run had it and --allow-run-as-root when it runs as root.
std::string launcher_words(int size);

// `word` quoted for a POSIX shell when it holds anything but safe characters.
std::string shell_quote(const std::string& word);

}  // namespace cartex::app
