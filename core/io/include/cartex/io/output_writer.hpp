#pragma once
// When and where a run writes field files, the XDMF index and checkpoints (output.* keys); the
// time loop calls maybe_write after every step and reads the totals for its summary.
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"
#include "cartex/core/field.hpp"
#include "cartex/core/schedule.hpp"
#include "cartex/io/checkpoint.hpp"
#include "cartex/io/provenance.hpp"
#include "cartex/io/table.hpp"
#include "cartex/io/xdmf.hpp"

namespace cartex::io {

// Totals for the run summary (rank 0's wall time of every write, data bytes over all ranks).
struct OutputStats {
  long field_files = 0;
  long checkpoints = 0;
  double bytes = 0;
  double seconds = 0;
  double longest_write = 0;  // the longest maybe_write call so far (this rank's clock), for the wall-time limit
};

// Writes DIR/fields_NNNNNN.h5 + DIR/fields.xmf and DIR/checkpoint_NNNNNN.h5 + DIR/checkpoint_NNNNNN.xmf
// at the configured steps.
class OutputWriter {
 public:
  // `first_step` is 0 for a fresh run or the checkpoint's step; `restart_from` its path (or empty).
  OutputWriter(const core::Config& cfg, const core::ProcessGrid& procs, long first_step, const std::string& restart_from, MPI_Comm comm);

  // Writes what is due at `step` (collective): field files at step 0, when output.every or
  // output.every_time is due (interval_due) and at the last step, checkpoints likewise for
  // output.checkpoint_every(_time) (never at first_step). `fields` is
  // the run's state at `step`: checkpoints hold all of them under their names, field files those
  // output.fields names ("u" must be present; e.g. wave: {{"u", &u}, {"u_previous", &previous}}). The
  // pointers are only used during the call. `history` is called only when a checkpoint is written.
  void maybe_write(long step, const std::vector<NamedField>& fields, const std::function<Table()>& history);
  // One-field runs (heat): maybe_write(step, {{"u", &u}}, history).
  void maybe_write(long step, const core::Field& u, const std::function<Table()>& history);

  // Writes a checkpoint at `step` now, whatever the schedule, unless one was written at `step`
  // already (collective): a run stopped early by a signal or the wall-time limit.
  void write_checkpoint_now(long step, const std::vector<NamedField>& fields, const std::function<Table()>& history);

  // True if maybe_write(step, ...) writes something (a field file or a checkpoint).
  bool writes_at(long step) const;

  // Totals so far.
  const OutputStats& stats() const { return stats_; }
  // One summary line ("N field files, M checkpoints, X MB in Y s (Z MB/s)"), empty if nothing was written.
  std::string summary() const;

 private:
  bool due(long step, const core::Interval& every) const;
  bool fields_due(long step) const;
  bool checkpoint_due(long step) const;
  core::Interval fields_every() const { return {cfg_.output_every, cfg_.output_every_time}; }
  void write_fields(long step, const std::vector<NamedField>& fields);
  void write_checkpoint_at(long step, const std::vector<NamedField>& fields, const Table& history);
  // Deletes all but the newest output.keep_checkpoints checkpoint files in the directory (rank 0).
  void prune_checkpoints() const;
  // The Information note of every XDMF file: version, commit and start of the run.
  std::string xdmf_note() const;
  void ensure_dir();

  const core::Config& cfg_;
  Provenance prov_;
  MPI_Comm comm_;
  int rank_ = 0;
  long first_step_ = 0;
  bool restarted_ = false;
  bool dir_ready_ = false;
  long last_checkpoint_ = -1;  // step of the last checkpoint this run wrote
  std::vector<XdmfEntry> series_;  // field files in the XDMF index (rank 0)
  OutputStats stats_;
};

// "fields_NNNNNN.h5", "checkpoint_NNNNNN.h5" and the checkpoint's "checkpoint_NNNNNN.xmf": the file names for `step`.
std::string field_file_name(long step);
std::string checkpoint_file_name(long step);
std::string checkpoint_xdmf_name(long step);

}  // namespace cartex::io
