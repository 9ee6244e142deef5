#include "stencil_plan.hpp"

#include <algorithm>
#include <cstdlib>

namespace cartex::kernels::detail {

int StencilPlan::reach_x(int c) const {
  int r = 0;
  for (const auto& g : groups)
    for (const auto& p : g.parts)
      if (p.column == c) r = std::max(r, std::abs(p.dx));
  return r;
}

int StencilPlan::uses(int c) const {
  int n = 0;
  for (const auto& g : groups)
    for (const auto& p : g.parts) n += p.column == c;
  return n;
}

StencilPlan make_plan(const core::Stencil& s) {
  // Per group, per dx (ascending): the lines of its points in stencil order.
  struct Building {
    double weight;
    std::vector<std::pair<int, std::vector<StencilPlan::Line>>> by_dx;
  };
  std::vector<Building> groups;
  for (int q = 0; q < s.size(); ++q) {
    const double w = s.weights[q];
    const core::Offset& o = s.offsets[q];
    auto g = std::find_if(groups.begin(), groups.end(), [&](const Building& b) { return b.weight == w; });
    if (g == groups.end()) g = groups.insert(groups.end(), Building{w, {}});
    auto part = std::find_if(g->by_dx.begin(), g->by_dx.end(), [&](const auto& p) { return p.first >= o[0]; });
    if (part == g->by_dx.end() || part->first != o[0]) part = g->by_dx.insert(part, {o[0], {}});
    part->second.push_back({o[1], o[2]});
  }
  StencilPlan plan;
  for (const auto& b : groups) {
    StencilPlan::Group g{b.weight, {}};
    for (const auto& [dx, lines] : b.by_dx) {
      auto c = std::find(plan.columns.begin(), plan.columns.end(), lines);
      if (c == plan.columns.end()) c = plan.columns.insert(plan.columns.end(), lines);
      g.parts.push_back({static_cast<int>(c - plan.columns.begin()), dx});
    }
    plan.groups.push_back(std::move(g));
  }
  return plan;
}

bool same_structure(const StencilPlan& a, const StencilPlan& b) {
  if (a.columns != b.columns || a.groups.size() != b.groups.size()) return false;
  for (size_t g = 0; g < a.groups.size(); ++g) {
    const auto& pa = a.groups[g].parts;
    const auto& pb = b.groups[g].parts;
    if (pa.size() != pb.size()) return false;
    for (size_t j = 0; j < pa.size(); ++j)
      if (pa[j].column != pb[j].column || pa[j].dx != pb[j].dx) return false;
  }
  return true;
}

std::string KernelShape::name() const {
  switch (kind) {
    case kBox9: return "box9";
    case kBox27: return "box27";
    case kGeneric: return "generic";
    case kStar: break;
  }
  std::string n = "star<" + std::to_string(dim) + "," + std::to_string(radius);
  if (std::any_of(cls.begin(), cls.begin() + dim, [](int c) { return c != 0; })) {
    n += ",";
    for (int c = 0; c < dim; ++c) {
      bool any = false;
      for (int d = 0; d < dim; ++d)
        if (cls[d] == c) {
          if (!any && c > 0) n += "|";
          n += "xyz"[d];
          any = true;
        }
    }
  }
  return n + ">";
}

namespace {

// The offsets of the star of radius r in dimension dim, in the star order.
std::vector<core::Offset> star_offsets(int dim, int r) {
  std::vector<core::Offset> o{{0, 0, 0}};
  for (int d = 0; d < dim; ++d)
    for (int k = 1; k <= r; ++k)
      for (int side : {-1, 1}) {
        core::Offset a{0, 0, 0};
        a[d] = side * k;
        o.push_back(a);
      }
  return o;
}

// The offsets of the 3^dim box in (dz, dy, dx) loop order.
std::vector<core::Offset> box_offsets(int dim) {
  std::vector<core::Offset> o;
  const int zr = dim == 3 ? 1 : 0;
  for (int dz = -zr; dz <= zr; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) o.push_back({dx, dy, dz});
  return o;
}

// A stencil with `offsets` and weights that are equal exactly where the specialized kernel expects
// equal weights; its plan is the structure that kernel evaluates.
core::Stencil model(int dim, const std::vector<core::Offset>& offsets, double (*weight)(const core::Offset&, const std::array<int, 3>&),
              const std::array<int, 3>& cls) {
  core::Stencil m;
  m.dim = dim;
  m.offsets = offsets;
  for (const auto& o : offsets) m.weights.push_back(weight(o, cls));
  return m;
}

double star_weight(const core::Offset& o, const std::array<int, 3>& cls) {
  for (int d = 0; d < 3; ++d)
    if (o[d] != 0) return 8.0 * cls[d] + std::abs(o[d]);  // one value per (class, k)
  return -1.0;                                             // the centre
}

double box_weight(const core::Offset& o, const std::array<int, 3>&) {
  const int nonzero = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
  return nonzero == 0 ? -1.0 : nonzero;
}

}  // namespace

KernelShape recognize(const core::Stencil& s, const StencilPlan& plan) {
  KernelShape k;
  const int dim = s.dim;
  if (dim != 2 && dim != 3) return k;
  const int t = s.size();
  // Stars: t = 1 + 2 * dim * r.
  if ((t - 1) % (2 * dim) == 0) {
    const int r = (t - 1) / (2 * dim);
    if (r >= 1 && r <= 4 && s.offsets == star_offsets(dim, r)) {
      // Dimension d's weights are those at 1 + 2r*d ... ; equal dimensions share a class.
      std::array<int, 3> cls{0, 0, 0};
      int classes = 1;
      for (int d = 1; d < dim; ++d) {
        cls[d] = -1;
        for (int e = 0; e < d && cls[d] < 0; ++e)
          if (std::equal(s.weights.begin() + 1 + 2 * r * d, s.weights.begin() + 1 + 2 * r * (d + 1),
                         s.weights.begin() + 1 + 2 * r * e))
            cls[d] = cls[e];
        if (cls[d] < 0) cls[d] = classes++;
      }
      if (same_structure(plan, make_plan(model(dim, s.offsets, star_weight, cls)))) {
        k.kind = KernelShape::kStar;
        k.dim = dim;
        k.radius = r;
        k.cls = cls;
      }
      return k;
    }
  }
  if (t == (dim == 3 ? 27 : 9) && s.offsets == box_offsets(dim) &&
      same_structure(plan, make_plan(model(dim, s.offsets, box_weight, {0, 0, 0})))) {
    k.kind = dim == 3 ? KernelShape::kBox27 : KernelShape::kBox9;
    k.dim = dim;
  }
  return k;
}

}  // namespace cartex::kernels::detail
