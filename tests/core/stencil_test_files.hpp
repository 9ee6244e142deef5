#pragma once
// Input files for configuration tests: each write() makes a new file in a private temporary
// directory, which the destructor removes.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace cartex::test {

class InputFiles {
 public:
  InputFiles() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cartex_stencil_XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("InputFiles: mkdtemp failed");
    dir_ = tmpl;
  }
  ~InputFiles() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  InputFiles(const InputFiles&) = delete;
  InputFiles& operator=(const InputFiles&) = delete;

  // Writes `text` to a new file and returns its path.
  std::string write(const std::string& text) {
    const std::string path = (dir_ / ("in" + std::to_string(count_++) + ".yaml")).string();
    std::ofstream(path) << text;
    return path;
  }

 private:
  std::filesystem::path dir_;
  int count_ = 0;
};

}  // namespace cartex::test
