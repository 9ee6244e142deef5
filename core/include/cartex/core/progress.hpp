#pragma once
// One-line progress records printed by rank 0: on an interactive terminal the line is rewritten in
// place; in a log file (and under mpiexec, see progress.cpp) every record is its own line.
#include <cstdio>
#include <string>

namespace cartex::core {

// Prints progress records ("step 40/100  t=4.0e-03  max=9.6e-01  ETA 1.2 s") on one stream.
class Progress {
 public:
  Progress(std::FILE* out, bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Prints one record; step / steps and `elapsed` seconds give the ETA.
  void record(long step, long steps, double time, const std::string& diagnostic, double elapsed);
  // Ends an in-place line so later output starts on a fresh line.
  void finish();

 private:
  std::FILE* out_;
  bool enabled_;
  bool tty_;
  bool open_line_ = false;
};

}  // namespace cartex::core
