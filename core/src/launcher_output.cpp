#include "launcher_output.hpp"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace cartex::core {

namespace {

// Bytes written to `fd` that its reader has not taken yet: FIONREAD on a pipe (either end counts the
// pipe's bytes on Linux), TIOCOUTQ on a terminal; 0 for a file or anything else (nothing to wait for).
int unread_bytes(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return 0;
  int n = 0;
  if (S_ISFIFO(st.st_mode)) return ioctl(fd, FIONREAD, &n) == 0 ? n : 0;
#ifdef TIOCOUTQ
  if (isatty(fd)) return ioctl(fd, TIOCOUTQ, &n) == 0 ? n : 0;
#endif
  return 0;
}

}  // namespace

void wait_until_output_read(double seconds) {
  std::fflush(stdout);
  std::fflush(stderr);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while ((unread_bytes(STDOUT_FILENO) > 0 || unread_bytes(STDERR_FILENO) > 0) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace cartex::core
