// libFuzzer target over the input layer (issue 13): YAML text in, a Config or ONE located InputError
// out ("FILE:LINE:COL: key.path: what was expected", one line). Anything else is a finding: a crash,
// a sanitizer report, a timeout, another exception type (uncaught, so libFuzzer reports it) or an
// unlocated message (abort() here). No MPI: load_config reads a file and never communicates. Each input
// is read for every equation of the registry (physics/equation.hpp).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "cartex/core/config.hpp"
#include "cartex/core/error.hpp"
#include "cartex/physics/equation.hpp"

namespace {

// The input file of this fuzzing process (one per process, so parallel jobs do not share it), in
// TMPDIR; removed when the process ends normally (after a finding it stays: the input is in it).
struct InputFile {
  std::string path = (std::filesystem::temp_directory_path() / ("cartex_config_fuzz_" + std::to_string(getpid()) + ".yaml")).string();
  ~InputFile() { std::remove(path.c_str()); }
};

const std::string& input_path() {
  static const InputFile file;
  return file.path;
}

// True if `message` is one line starting with PATH:LINE:COL: key: followed by a reason (the key of
// the document itself is "(top level)"; a key path component that is not a plain name is quoted).
bool located(const std::string& message) {
  static const std::regex form(
      R"(^[^\n]*:[0-9]+:[0-9]+: (\(top level\)|([^ \n:."]+|"([^"\\]|\\.)*")(\.([^ \n:."]+|"([^"\\]|\\.)*"))*): [^\n]+$)");
  return message.rfind(input_path() + ":", 0) == 0 && std::regex_match(message, form);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(input_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  for (const cartex::physics::Equation* equation : cartex::physics::equations()) {
    try {
      cartex::core::load_config(input_path(), {}, cartex::physics::loader_input(*equation));
    } catch (const cartex::core::InputError& e) {
      if (!located(e.what())) {
        std::fprintf(stderr, "config_fuzzer: unlocated input error: %s\n", e.what());
        std::abort();
      }
    }
  }
  return 0;
}
