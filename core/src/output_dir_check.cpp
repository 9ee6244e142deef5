#include "output_dir_check.hpp"

#include <fmt/format.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <filesystem>

namespace cartex::core::detail {

namespace {

// The kind of kernel file system `dir` is on when it can hold no files of a run (statfs' f_type,
// linux/magic.h), or nullptr. Root passes access() there, yet mkdir or open fails.
const char* pseudo_file_system(const std::string& dir) {
  struct statfs st {};
  if (::statfs(dir.c_str(), &st) != 0) return nullptr;
  switch (static_cast<unsigned long>(st.f_type)) {
    case 0x9fa0UL: return "proc";
    case 0x62656572UL: return "sysfs";
    case 0x27e0ebUL: return "cgroup";
    case 0x63677270UL: return "cgroup2";
    case 0x1cd1UL: return "devpts";
    case 0x64626720UL: return "debugfs";
    default: return nullptr;
  }
}

}  // namespace

std::string output_dir_problem(const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path path(dir);
  fs::path prefix;
  fs::path existing = path.is_absolute() ? fs::path("/") : fs::path(".");
  for (const auto& part : path) {
    prefix /= part;
    std::error_code ec;
    const fs::file_status st = fs::status(prefix, ec);
    if (st.type() == fs::file_type::not_found) break;
    if (ec) return fmt::format("cannot inspect {}: {}", prefix.string(), ec.message());
    if (!fs::is_directory(st)) return fmt::format("cannot create directory \"{}\": {} is a file, not a directory", dir, prefix.string());
    existing = prefix;
  }
  const std::string what = existing == path ? fmt::format("directory \"{}\"", dir)
                                            : fmt::format("cannot create directory \"{}\": {}", dir, existing.string());
  if (const char* kind = pseudo_file_system(existing.string()))
    return fmt::format("{} is on a {} file system, which holds no output files", what, kind);
  struct statvfs vfs {};
  if (::statvfs(existing.c_str(), &vfs) == 0 && (vfs.f_flag & ST_RDONLY) != 0)
    return fmt::format("{} is on a read-only file system", what);
  if (::access(existing.c_str(), W_OK | X_OK) == 0) return {};
  return fmt::format("{} is not writable", what);
}

}  // namespace cartex::core::detail
