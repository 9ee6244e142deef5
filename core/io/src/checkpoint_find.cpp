#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "cartex/core/error.hpp"
#include "cartex/io/checkpoint.hpp"
#include "h5.hpp"

namespace cartex::io {

namespace {

// Opens `path` if it is a cartex checkpoint; otherwise returns an invalid handle and says why in `why`.
h5::Handle open_checkpoint(const std::string& path, std::string& why) {
  h5::silence_errors();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    why = std::filesystem::is_directory(path, ec) ? "a directory, not a checkpoint file" : "no such file";
    return h5::Handle();
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    why = "not an HDF5 file";
    return h5::Handle();
  }
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  std::string kind;
  if (!file.valid()) why = "cannot open the HDF5 file (truncated or damaged)";
  else if (!h5::read_attr(file.get(), "kind", kind) || kind != "cartex checkpoint")
    why = "not a cartex checkpoint (no attribute kind = \"cartex checkpoint\")";
  return why.empty() ? std::move(file) : h5::Handle();
}

}  // namespace

std::string newest_checkpoint(const std::string& dir) {
  namespace fs = std::filesystem;
  static const std::regex pattern(R"(checkpoint_(\d+)\.h5)");
  std::vector<std::pair<long, std::string>> found;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw core::InputError(fmt::format("{}: no such directory (output.dir), so no checkpoint in it", dir));
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (std::regex_match(name, m, pattern)) found.emplace_back(std::stol(m[1]), e.path().string());
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [step, path] : found) {
    std::string why;
    long at = -1;
    h5::Handle file = open_checkpoint(path, why);
    if (file.valid() && h5::read_attr(file.get(), "step", at) && at == step) return path;
  }
  throw core::InputError(fmt::format("{}: no valid checkpoint_NNNNNN.h5 in this directory (output.dir)", dir));
}

std::string checkpoint_input(const std::string& path) {
  std::string why, yaml;
  h5::Handle file = open_checkpoint(path, why);
  if (!file.valid()) throw core::InputError(fmt::format("{}: {}", path, why));
  if (!h5::read_attr(file.get(), "input_yaml", yaml) || yaml.empty())
    throw core::InputError(fmt::format("{}: the checkpoint holds no input (attribute input_yaml); give the input file too", path));
  return yaml;
}

}  // namespace cartex::io
