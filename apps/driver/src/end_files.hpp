#pragma once
// The files a run writes after its last step: history.csv and the restart marker (docs/output.md).
#include <string>
#include <vector>

#include "diagnostics_record.hpp"
#include "driver.hpp"

namespace cartex::app {

// The restart marker's name in output.dir: a shell script that continues a stopped run, written when
// the run stopped early and removed by a run that reaches run.steps.
inline constexpr const char* kRestartMarker = "restart.sh";

// On rank 0: writes DIR/history.csv (output.history) and DIR/restart.sh (`stop_checkpoint` not empty:
// the run stopped early with that checkpoint) or removes a restart.sh left from before. Returns one
// line per file that failed ("cannot write PATH: OS error"), for after the summary.
std::vector<std::string> write_end_files(const Setup& s, const std::vector<Record>& history, const std::string& stop_checkpoint);

}  // namespace cartex::app
