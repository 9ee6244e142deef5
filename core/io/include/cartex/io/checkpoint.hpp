#pragma once
// Checkpoints: everything heat3d needs to continue a run bitwise (the field interior, the step and
// the diagnostics history so far), readable on any number of ranks (docs/output.md).
#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/io/provenance.hpp"
#include "cartex/io/table.hpp"

namespace cartex::io {

// A checked checkpoint with this rank's block of the field already read.
struct Checkpoint {
  std::string path;
  long step = 0;
  Table history;              // diagnostics rows up to `step`
  Box box;                    // this rank's interior box the block was read for
  std::vector<double> block;  // the field on `box`, z slowest, x fastest
};

// Writes checkpoint `path` at `step` (collective, atomic): the field u and `history` (rank 0's is
// stored); returns the bytes of data written.
double write_checkpoint(const std::string& path, const Config& cfg, const Provenance& prov, long step, const Field& u,
                        const Table& history, MPI_Comm comm);

// Opens `path`, checks it against `cfg` (file kind, layout version, grid, stencil, dt, step) and
// reads the block `box`, on this rank alone; throws InputError "PATH: what" on any problem.
Checkpoint read_checkpoint(const std::string& path, const Config& cfg, const Box& box);

// Copies the checkpoint's block into the interior of `u` (halos untouched).
void load_checkpoint_field(const Checkpoint& ck, Field& u);

}  // namespace cartex::io
