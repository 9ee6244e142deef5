#include "cartex/core/stencil_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace cartex::core {

namespace {

struct Entry {
  StencilFactory make;
  std::string description;
};

// The process-wide table; a function-local static, so registering from static initialisers of other
// translation units is safe too.
std::map<std::string, Entry>& table() {
  static std::map<std::string, Entry> entries;
  return entries;
}

}  // namespace

void register_stencil(std::string name, StencilFactory make, std::string description) {
  if (name.empty()) throw std::invalid_argument("register_stencil: the name is empty");
  if (!make) throw std::invalid_argument(fmt::format("register_stencil: \"{}\" has no factory (an empty std::function)", name));
  const auto reserved = reserved_stencil_names();
  if (std::find(reserved.begin(), reserved.end(), name) != reserved.end())
    throw std::invalid_argument(fmt::format("register_stencil: \"{}\" is the name of a builtin stencil ({}); choose another name",
                                            name, fmt::join(reserved, ", ")));
  auto it = table().find(name);
  if (it != table().end())
    throw std::invalid_argument(
        fmt::format("register_stencil: \"{}\" is already registered ({}); choose another name", name, it->second.description));
  table().emplace(std::move(name), Entry{std::move(make), std::move(description)});
}

std::vector<RegisteredStencil> registered_stencils() {
  std::vector<RegisteredStencil> out;
  for (const auto& [name, e] : table()) out.push_back({name, e.description});
  return out;
}

bool is_registered_stencil(const std::string& name) { return table().count(name) > 0; }

Stencil make_named_stencil(const std::string& name, const GlobalGrid& grid) {
  auto names = builtin_stencil_names(grid.dim);
  if (std::find(names.begin(), names.end(), name) != names.end()) return make_builtin_stencil(name, grid);
  auto it = table().find(name);
  if (it == table().end()) {
    for (const auto& r : registered_stencils()) names.push_back(r.name);
    throw std::invalid_argument(
        fmt::format("unknown stencil \"{}\" for a {}D grid (expected one of: {})", name, grid.dim, fmt::join(names, ", ")));
  }
  Stencil s;
  try {
    s = it->second.make(grid);
  } catch (const std::exception& e) {
    throw std::invalid_argument(fmt::format("registered stencil \"{}\" cannot be built for this grid: {}", name, e.what()));
  }
  try {
    validate_stencil(s, grid.dim);
  } catch (const InvalidStencil& e) {
    throw InvalidStencil(fmt::format("registered stencil \"{}\" is invalid: {}", name, e.what()), e.part(), e.point());
  }
  s.name = name;
  return s;
}

}  // namespace cartex::core
