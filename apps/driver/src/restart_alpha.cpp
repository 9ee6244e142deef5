#include "restart_alpha.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cartex/core/error.hpp"

namespace cartex::app {

std::vector<std::string> restart_field_names(const Setup& s) {
  std::vector<std::string> names = s.equation->state;
  if (s.alpha) names.push_back("alpha");
  return names;
}

void check_restart_alpha(const Setup& s) {
  const io::Checkpoint& ck = *s.restart;
  const bool stored = std::find(ck.fields.begin(), ck.fields.end(), "alpha") != ck.fields.end();
  if (stored && !s.alpha)
    throw core::InputError(fmt::format("{}: the checkpoint holds a field alpha, the input's physics.alpha is a number "
                                       "(give the field the run was started with)",
                                       ck.path));
  if (!s.alpha) return;
  const std::vector<double>& block = ck.blocks.at("alpha");
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.alpha->view);
  const core::FieldLayout& l = s.alpha->layout;
  size_t at = 0;
  for (long k = 0; k < l.box.n[2]; ++k)
    for (long j = 0; j < l.box.n[1]; ++j)
      for (long i = 0; i < l.box.n[0]; ++i, ++at) {
        const double input = host(k + l.halo.lo[2], j + l.halo.lo[1], i + l.halo.lo[0]);
        if (input != block[at])
          throw core::InputError(fmt::format("{}: physics.alpha differs from the checkpoint's alpha at cell ({}, {}, {}): "
                                             "{:.17g} in the input, {:.17g} in the checkpoint (a restart keeps the field)",
                                             ck.path, l.box.lo[0] + i, l.box.lo[1] + j, l.box.lo[2] + k, input, block[at]));
      }
}

}  // namespace cartex::app
