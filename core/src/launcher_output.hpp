#pragma once
// Internal: lets the launcher read what a rank printed before the rank ends the job.
//
// mpiexec forwards a rank's stdout and stderr from pipes (Hydra: both; Open MPI: stderr, stdout from a
// pty). MPI_Abort asks the launcher to kill every rank, and a launcher that handles the abort before it
// has read the pipe loses the rank's last lines: the one error line the user needs. Bytes the launcher
// has read are forwarded ahead of the abort (same proxy, same ordered connection), so the rank waits
// until its pipes are empty first.

namespace cartex::core {

// Flushes stdout and stderr and waits until the reader of each (a pipe or a terminal) has taken every
// byte, or until `seconds` have passed (a launcher that stopped reading must not hang the abort).
void wait_until_output_read(double seconds);

}  // namespace cartex::core
