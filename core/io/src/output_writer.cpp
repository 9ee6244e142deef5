#include "cartex/io/output_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "atomic_rename.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"
#include "cartex/core/phase_profile.hpp"
#include "cartex/core/schedule.hpp"
#include "cartex/io/field_file.hpp"
#include "cartex/io/output_dir.hpp"

namespace cartex::io {

namespace fs = std::filesystem;

std::string field_file_name(long step) { return fmt::format("fields_{:06d}.h5", step); }
std::string checkpoint_file_name(long step) { return fmt::format("checkpoint_{:06d}.h5", step); }
std::string checkpoint_xdmf_name(long step) { return fmt::format("checkpoint_{:06d}.xmf", step); }

OutputWriter::OutputWriter(const core::Config& cfg, const core::ProcessGrid& procs, long first_step, const std::string& restart_from,
                           MPI_Comm comm)
    : cfg_(cfg), prov_(make_provenance(cfg, procs, restart_from, comm)), comm_(comm), first_step_(first_step),
      restarted_(!restart_from.empty()) {
  rank_ = core::comm_rank(comm);
  // A restarted run's XDMF index keeps the field files the first run wrote up to the restart step.
  if (rank_ == 0 && restarted_ && fields_every().active())
    for (long s = 0; s <= first_step; ++s)
      if ((s == 0 || core::interval_due(fields_every(), cfg, s)) && fs::exists(fs::path(cfg.output_dir) / field_file_name(s)))
        series_.push_back({s, core::step_time(cfg, s), field_file_name(s)});
}

bool OutputWriter::due(long step, const core::Interval& every) const {
  return every.active() && (step == 0 || step == cfg_.steps || core::interval_due(every, cfg_, step));
}

bool OutputWriter::fields_due(long step) const { return due(step, fields_every()) && !(restarted_ && step == first_step_); }

bool OutputWriter::checkpoint_due(long step) const {
  return due(step, {cfg_.checkpoint_every, cfg_.checkpoint_every_time}) && step != first_step_;
}

bool OutputWriter::writes_at(long step) const { return fields_due(step) || checkpoint_due(step); }

void OutputWriter::ensure_dir() {
  if (dir_ready_) return;
  int ok = 1;
  std::string why;
  if (rank_ == 0) {
    why = prepare_output_dir(cfg_.output_dir);
    ok = why.empty() ? 1 : 0;
  }
  if (MPI_Bcast(&ok, 1, MPI_INT, 0, comm_) != MPI_SUCCESS) throw core::Error("MPI_Bcast failed while preparing the output directory");
  if (!ok) throw core::Error(rank_ == 0 ? why : "cannot create the output directory (see rank 0)");
  dir_ready_ = true;
}

void OutputWriter::maybe_write(long step, const std::vector<NamedField>& fields, const std::function<Table()>& history) {
  const auto u = std::find_if(fields.begin(), fields.end(), [](const NamedField& f) { return f.name == "u"; });
  core::require(u != fields.end() && u->field != nullptr, "OutputWriter::maybe_write: the fields have no u");
  const bool field_files = fields_due(step);
  const bool checkpoint = checkpoint_due(step);
  if (!field_files && !checkpoint) return;
  core::PhaseScope phase(core::Phase::kOutput);
  ensure_dir();
  const double t0 = MPI_Wtime();
  if (field_files) write_fields(step, fields);
  if (checkpoint) write_checkpoint_at(step, fields, history());
  const double seconds = MPI_Wtime() - t0;
  stats_.seconds += seconds;
  stats_.longest_write = std::max(stats_.longest_write, seconds);
}

void OutputWriter::maybe_write(long step, const core::Field& u, const std::function<Table()>& history) {
  maybe_write(step, std::vector<NamedField>{{"u", &u}}, history);
}

void OutputWriter::write_fields(long step, const std::vector<NamedField>& fields) {
  const std::string name = field_file_name(step);
  stats_.bytes += write_field_file((fs::path(cfg_.output_dir) / name).string(), cfg_, prov_, step, fields, comm_);
  ++stats_.field_files;
  if (rank_ != 0) return;
  series_.push_back({step, core::step_time(cfg_, step), name});
  std::vector<XdmfField> datasets;
  for (const auto& f : cfg_.output_fields) datasets.push_back({f, f == "rank"});  // rank is int32, u and alpha float64
  write_text_atomically((fs::path(cfg_.output_dir) / "fields.xmf").string(),
                        xdmf_text(cfg_.grid, "fields", datasets, series_, xdmf_note()));
}

std::string OutputWriter::xdmf_note() const {
  return fmt::format("cartex {} (commit {}), started {}", prov_.version, prov_.git_commit, prov_.start_time);
}

void OutputWriter::write_checkpoint_now(long step, const std::vector<NamedField>& fields, const std::function<Table()>& history) {
  if (step == last_checkpoint_) return;
  ensure_dir();
  const double t0 = MPI_Wtime();
  write_checkpoint_at(step, fields, history());
  stats_.seconds += MPI_Wtime() - t0;
}

void OutputWriter::write_checkpoint_at(long step, const std::vector<NamedField>& fields, const Table& history) {
  const std::string path = (fs::path(cfg_.output_dir) / checkpoint_file_name(step)).string();
  stats_.bytes += write_checkpoint(path, cfg_, prov_, step, fields, history, comm_);
  ++stats_.checkpoints;
  last_checkpoint_ = step;
  if (rank_ != 0) return;
  // The checkpoint's own XDMF, written after the checkpoint is complete: the state a restart starts from.
  std::vector<XdmfField> datasets;
  for (const auto& f : fields) datasets.push_back({f.name, false});
  const XdmfEntry entry{step, core::step_time(cfg_, step), checkpoint_file_name(step)};
  write_text_atomically((fs::path(cfg_.output_dir) / checkpoint_xdmf_name(step)).string(),
                        xdmf_text(cfg_.grid, "checkpoint", datasets, {entry}, xdmf_note()));
  prune_checkpoints();
}

void OutputWriter::prune_checkpoints() const {
  if (cfg_.keep_checkpoints == 0) return;
  static const std::regex pattern(R"(checkpoint_(\d+)\.h5)");
  std::vector<std::pair<long, fs::path>> found;
  for (const auto& e : fs::directory_iterator(cfg_.output_dir)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (std::regex_match(name, m, pattern)) found.emplace_back(std::stol(m[1]), e.path());
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = static_cast<size_t>(cfg_.keep_checkpoints); i < found.size(); ++i) {
    fs::remove(found[i].second);
    std::error_code ignored;  // best effort: a checkpoint from before checkpoints had an XDMF has none
    fs::remove(fs::path(cfg_.output_dir) / checkpoint_xdmf_name(found[i].first), ignored);
  }
}

std::string OutputWriter::summary() const {
  if (stats_.field_files + stats_.checkpoints == 0) return "";
  const double mb = stats_.bytes / 1e6;
  const auto count = [](long n, const char* what) { return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s"); };
  return fmt::format("{}, {}, {:.1f} MB in {:.3f} s ({:.0f} MB/s)", count(stats_.field_files, "field file"),
                     count(stats_.checkpoints, "checkpoint"), mb, stats_.seconds, stats_.seconds > 0 ? mb / stats_.seconds : 0.0);
}

}  // namespace cartex::io
