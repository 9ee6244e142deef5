#include "end_files.hpp"

#include <fmt/format.h>

#include <exception>
#include <filesystem>

#include "cartex/io/output_dir.hpp"
#include "history_csv.hpp"
#include "restart_command.hpp"

namespace cartex::app {

namespace {

namespace fs = std::filesystem;

// The marker's text: a script that continues the run from `checkpoint` wherever it is run from.
std::string marker_text(const Setup& s, const std::string& checkpoint) {
  return fmt::format(
      "#!/bin/sh\n"
      "# {} stopped early with checkpoint {}; this continues it (in the directory the run was started in).\n"
      "# Removed by the run that reaches run.steps. Run it with: sh {}\n"
      "cd {} && exec {}\n",
      s.app, checkpoint, (fs::path(s.cfg.output_dir) / kRestartMarker).string(), shell_quote(fs::current_path().string()),
      restart_command(s, checkpoint));
}

}  // namespace

std::vector<std::string> write_end_files(const Setup& s, const std::vector<Record>& history, const std::string& stop_checkpoint) {
  std::vector<std::string> problems;
  const auto attempt = [&problems](const auto& write) {
    try {
      write();
    } catch (const std::exception& e) {
      problems.push_back(e.what());
    }
  };
  if (s.cfg.write_history) attempt([&] { write_history(s.cfg.output_dir, history, s.equation->fields); });
  const fs::path marker = fs::path(s.cfg.output_dir) / kRestartMarker;
  if (!stop_checkpoint.empty()) {
    attempt([&] { io::write_text_atomically(marker.string(), marker_text(s, stop_checkpoint)); });
  } else {
    std::error_code ec;
    fs::remove(marker, ec);
    if (ec) problems.push_back(fmt::format("cannot remove {}: {}", marker.string(), ec.message()));
  }
  return problems;
}

}  // namespace cartex::app
