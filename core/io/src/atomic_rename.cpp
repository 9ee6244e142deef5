#include "atomic_rename.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cartex/core/error.hpp"

namespace cartex::io {

namespace {

void fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) throw core::Error(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw core::Error(fmt::format("cannot flush {} to disk: {}", path, std::strerror(err)));
}

}  // namespace

void rename_durably(const std::string& tmp, const std::string& path) {
  fsync_path(tmp, O_RDONLY);
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw core::Error(fmt::format("cannot rename {} to {}: {}", tmp, path, std::strerror(errno)));
  const auto dir = std::filesystem::path(path).parent_path();
  fsync_path(dir.empty() ? std::string(".") : dir.string(), O_RDONLY | O_DIRECTORY);
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr) throw core::Error(fmt::format("cannot write {}: {}", tmp, std::strerror(errno)));
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int write_errno = errno;
  if (std::fclose(f) != 0 || !ok) throw core::Error(fmt::format("cannot write {}: {}", tmp, std::strerror(ok ? errno : write_errno)));
  rename_durably(tmp, path);
}

}  // namespace cartex::io
