#include "cartex/io/output_dir.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace cartex::io {

std::string prepare_output_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fmt::format("cannot create directory \"{}\": {}", dir, ec.message());
  // A name of this process alone, so ranks of other runs probing the same directory do not collide.
  const std::string probe = (fs::path(dir) / fmt::format(".cartex_probe_{}", ::getpid())).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return fmt::format("cannot write a file in \"{}\" ({}): {}", dir, probe, std::strerror(errno));
  const char byte = '\n';
  const bool written = ::write(fd, &byte, 1) == 1;
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  const int close_errno = errno;
  ::unlink(probe.c_str());
  if (!written || !closed)
    return fmt::format("cannot write a file in \"{}\" ({}): {}", dir, probe, std::strerror(!written ? write_errno : close_errno));
  return {};
}

}  // namespace cartex::io
