#pragma once
// Checkpoints: everything a run needs to continue bitwise (the interiors of its named fields, the
// step, the equation and the diagnostics history so far), readable on any number of ranks
// (docs/output.md).
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/io/provenance.hpp"
#include "cartex/io/table.hpp"

namespace cartex::io {

// Layout version of the checkpoints written. Version 1 (one field u, written by heat3d before the
// equation was recorded) is still read, as a heat checkpoint holding the field u.
inline constexpr long kCheckpointLayoutVersion = 2;

// One field of a run's state, stored in a checkpoint as the dataset `name` (letters, digits, '_').
struct NamedField {
  std::string name;
  const core::Field* field = nullptr;
};

// A checked checkpoint with this rank's block of the requested fields already read.
struct Checkpoint {
  std::string path;
  long layout_version = kCheckpointLayoutVersion;
  std::string equation;  // the equation's name (a row of physics/'s registry)
  long step = 0;
  Table history;                                      // diagnostics rows up to `step`
  core::Box box;                                            // this rank's interior box the blocks were read for
  std::vector<std::string> fields;                    // every field the file holds, in file order
  std::map<std::string, std::vector<double>> blocks;  // the requested fields on `box`, z slowest, x fastest
};

// Writes checkpoint `path` at `step` (collective, atomic): every field of `fields` (this rank's
// interior of each, under its name; at least one, names unique) and `history` (rank 0's is
// stored); returns the bytes of data written. Throws cartex::core::Error on a bad field list.
double write_checkpoint(const std::string& path, const core::Config& cfg, const Provenance& prov, long step,
                        const std::vector<NamedField>& fields, const Table& history, MPI_Comm comm);

// Opens `path`, checks it against `cfg` (file kind, layout version, equation, grid, stencil, dt,
// step), checks that it holds every field of `required` (the state fields of cfg.equation's row,
// physics/equation.hpp) and reads their blocks on `box`, on this rank alone; `equations` are the
// names a checkpoint may hold (physics' registry). Throws InputError "PATH: what" on any problem.
Checkpoint read_checkpoint(const std::string& path, const core::Config& cfg, const core::Box& box,
                           const std::vector<std::string>& required, const std::vector<std::string>& equations);

// The newest DIR/checkpoint_NNNNNN.h5 that opens as a cartex checkpoint of its step (--restart latest);
// throws InputError "DIR: what" when there is none. On this rank alone.
std::string newest_checkpoint(const std::string& dir);

// The resolved input a checkpoint was written with (its provenance attribute input_yaml), for a
// restart without an input file; throws InputError "PATH: what".
std::string checkpoint_input(const std::string& path);

// Copies the checkpoint's block of field `name` into the interior of `field` (halos untouched).
// Throws InputError "PATH: the checkpoint has no field NAME ..." if the file does not hold it, and
// cartex::core::Error if it does but `name` was not among the fields read_checkpoint was asked for.
void load_checkpoint_field(const Checkpoint& ck, const std::string& name, core::Field& field);

// One-field runs: load_checkpoint_field(ck, "u", u).
void load_checkpoint_field(const Checkpoint& ck, core::Field& u);

}  // namespace cartex::io
