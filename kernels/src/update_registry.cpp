#include "cartex/kernels/update_registry.hpp"

#include <map>
#include <stdexcept>

namespace cartex::kernels {

namespace {

std::map<std::string, UpdateFactory>& updates() {
  static std::map<std::string, UpdateFactory> table;
  return table;
}

}  // namespace

void register_update(const std::string& name, core::StencilFactory footprint, UpdateFactory make, const std::string& description) {
  if (updates().count(name)) throw std::invalid_argument("register_update: an update named \"" + name + "\" is already registered");
  core::register_stencil(name, std::move(footprint), description);  // rejects builtin and taken stencil names
  updates().emplace(name, std::move(make));
}

const UpdateFactory* find_update(const std::string& name) {
  auto it = updates().find(name);
  return it == updates().end() ? nullptr : &it->second;
}

}  // namespace cartex::kernels
