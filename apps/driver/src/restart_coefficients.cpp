#include "restart_coefficients.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cartex/core/error.hpp"

namespace cartex::app {

std::vector<std::string> restart_field_names(const Setup& s) {
  std::vector<std::string> names = physics::state_names(*s.equation);
  for (const auto& [key, field] : s.coefficients) names.push_back(key);
  return names;
}

void check_restart_coefficients(const Setup& s) {
  const io::Checkpoint& ck = *s.restart;
  for (const core::PhysicsKey& k : s.equation->keys) {
    if (k.kind != core::PhysicsKey::Kind::kCoefficient) continue;
    const auto given = s.coefficients.find(k.name);
    const bool stored = std::find(ck.fields.begin(), ck.fields.end(), k.name) != ck.fields.end();
    if (stored && given == s.coefficients.end())
      throw core::InputError(fmt::format("{}: the checkpoint holds a field {}, the input's physics.{} is a number "
                                         "(give the field the run was started with)",
                                         ck.path, k.name, k.name));
    if (given == s.coefficients.end()) continue;
    const std::vector<double>& block = ck.blocks.at(k.name);
    const core::Field& field = *given->second;
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field.view);
    const core::FieldLayout& l = field.layout;
    size_t at = 0;
    for (long z = 0; z < l.box.n[2]; ++z)
      for (long y = 0; y < l.box.n[1]; ++y)
        for (long x = 0; x < l.box.n[0]; ++x, ++at) {
          const double input = host(z + l.halo.lo[2], y + l.halo.lo[1], x + l.halo.lo[0]);
          if (input != block[at])
            throw core::InputError(fmt::format("{}: physics.{} differs from the checkpoint's {} at cell ({}, {}, {}): "
                                               "{:.17g} in the input, {:.17g} in the checkpoint (a restart keeps the field)",
                                               ck.path, k.name, k.name, l.box.lo[0] + x, l.box.lo[1] + y, l.box.lo[2] + z, input,
                                               block[at]));
        }
  }
}

}  // namespace cartex::app
