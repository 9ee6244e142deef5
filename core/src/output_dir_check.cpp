#include "output_dir_check.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

namespace cartex::core::detail {

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
  if (::access(existing.c_str(), W_OK | X_OK) == 0) return {};
  if (existing == path) return fmt::format("directory \"{}\" is not writable", dir);
  return fmt::format("cannot create directory \"{}\": {} is not writable", dir, existing.string());
}

}  // namespace cartex::core::detail
