// docs/input.md's key tables against the input schema (cartex/core/input_keys.hpp). Each table on the
// page sits between two markers,
//   <!-- input keys: SECTION -->          SECTION: grid, processes, stencil, boundary, init, run, comm,
//   | key | type | default | meaning |              halo, output; "physics" (physics.dt, physics.cfl);
//   ...                                            "physics EQUATION" (that equation's physics keys)
//   <!-- end input keys -->
// and must equal the schema's table of that section (names, types, defaults, meanings), and every key
// of every equation must be in some table.
//   input_docs DOC            exit 0 when they agree, else 1 with the first difference
//   input_docs --update DOC   rewrite the tables from the schema
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cartex/core/input_keys.hpp"
#include "cartex/physics/equation.hpp"

namespace {

using cartex::core::InputKey;

// The keys of block `section` ("grid", "physics", "physics heat").
std::vector<InputKey> section_keys(const std::string& section) {
  std::vector<InputKey> keys;
  if (section.rfind("physics ", 0) == 0) {
    const auto eq = cartex::physics::loader_input(cartex::physics::find_equation(section.substr(8)));
    for (const auto& k : cartex::core::input_keys(eq))
      if (k.path.rfind("physics.", 0) == 0 && k.path != "physics.dt" && k.path != "physics.cfl") keys.push_back(k);
    return keys;
  }
  for (const auto& k : cartex::core::common_input_keys())
    if (k.path == section || k.path.rfind(section + ".", 0) == 0) keys.push_back(k);
  return keys;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  const bool update = argc == 3 && std::string(argv[1]) == "--update";
  if (argc != 2 && !update) {
    std::cerr << "usage: input_docs [--update] docs/input.md\n";
    return 2;
  }
  const std::string path = argv[argc - 1];
  const std::string text = read(path);
  if (text.empty()) {
    std::cerr << path << ": cannot read\n";
    return 2;
  }
  static const std::regex block(R"(<!-- input keys: ([a-z -]+) -->\n([\s\S]*?)<!-- end input keys -->)");
  std::string out;
  std::set<std::string> documented;
  int mismatches = 0;
  auto from = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), block), end; it != end; ++it) {
    const std::string section = (*it)[1];
    const std::vector<InputKey> keys = section_keys(section);
    if (keys.empty()) {
      std::cerr << path << ": the block \"" << section << "\" names no section of the schema\n";
      return 1;
    }
    for (const auto& k : keys) documented.insert(k.path);
    const std::string want = cartex::core::input_keys_markdown(keys);
    if ((*it)[2] != want && mismatches++ == 0 && !update) {
      std::cerr << path << ": the table of \"" << section << "\" differs from the input schema (core/src/input_keys.cpp); "
                << "`input_docs --update " << path << "` rewrites it. The schema's table:\n" << want;
    }
    out.append(from, (*it)[2].first);
    out += want;
    from = (*it)[2].second;
  }
  out.append(from, text.cend());
  for (const auto& name : cartex::physics::equation_names())
    for (const auto& k : cartex::core::input_keys(cartex::physics::loader_input(cartex::physics::find_equation(name))))
      if (!documented.count(k.path)) {
        std::cerr << path << ": key " << k.path << " (" << name << ") is in no table\n";
        ++mismatches;
      }
  if (update) {
    std::ofstream(path) << out;
    std::cout << path << ": tables written\n";
    return 0;
  }
  if (mismatches) return 1;
  std::cout << path << ": " << documented.size() << " keys, every table equals the input schema\n";
  return 0;
}
