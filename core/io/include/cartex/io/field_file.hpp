#pragma once
// Field files: one HDF5 file per output step holding the global arrays of the chosen fields
// (docs/output.md has the layout).
#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/io/checkpoint.hpp"
#include "cartex/io/provenance.hpp"

namespace cartex::io {

// Layout version of field files (checkpoints have their own: kCheckpointLayoutVersion).
inline constexpr long kFieldFileLayoutVersion = 1;

// Writes the field file `path` at `step` with the fields cfg.output_fields (collective, atomic);
// returns the bytes of field data written. u, and alpha when listed, come from `fields` by name.
double write_field_file(const std::string& path, const core::Config& cfg, const Provenance& prov, long step,
                        const std::vector<NamedField>& fields, MPI_Comm comm);
// The same with the one field u.
double write_field_file(const std::string& path, const core::Config& cfg, const Provenance& prov, long step, const core::Field& u,
                        MPI_Comm comm);

}  // namespace cartex::io
