#include "cartex/core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

namespace cartex::core {

namespace {

// A terminal we may rewrite in place. Open MPI's launcher hands every rank a pseudo-terminal even when
// mpiexec's own output goes to a file, so under it we cannot tell and print one line per record.
bool interactive(std::FILE* out) {
  return isatty(fileno(out)) != 0 && std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr &&
         std::getenv("PMI_RANK") == nullptr;
}

}  // namespace

Progress::Progress(std::FILE* out, bool enabled) : out_(out), enabled_(enabled), tty_(enabled && interactive(out)) {}

Progress::~Progress() { finish(); }

void Progress::record(long step, long steps, double time, const std::string& diagnostic, double elapsed) {
  if (!enabled_) return;
  const double frac = steps > 0 ? static_cast<double>(step) / steps : 1.0;
  const double eta = frac > 0 ? elapsed * (1.0 - frac) / frac : 0.0;
  std::string line = fmt::format("step {:>{}}/{}  t={:.4e}  {}  ETA {:.1f} s", step, fmt::formatted_size("{}", steps),
                                 steps, time, diagnostic, eta);
  if (tty_) {
    fmt::print(out_, "\r\033[K{}", line);
    open_line_ = true;
  } else {
    fmt::print(out_, "{}\n", line);
  }
  std::fflush(out_);
}

void Progress::finish() {
  if (open_line_) {
    fmt::print(out_, "\n");
    std::fflush(out_);
    open_line_ = false;
  }
}

}  // namespace cartex::core
