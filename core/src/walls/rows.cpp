// The table of wall kinds (core/wall_kinds.hpp) and the face reading and writing it drives.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "cartex/core/error.hpp"
#include "wall_face.hpp"

namespace cartex::core {

const std::array<const WallKindRow*, kWallKinds>& wall_kind_rows() {
  static const std::array<const WallKindRow*, kWallKinds> rows = [] {
    const std::array<const WallKindRow*, kWallKinds> r{&walls::periodic_row(), &walls::dirichlet_row(),
                                                       &walls::dirichlet_exact_row(), &walls::neumann_row(),
                                                       &walls::robin_row()};
    for (int k = 0; k < kWallKinds; ++k)
      require(static_cast<int>(r[k]->kind) == k, "wall_kind_rows: the table is not in the order of WallKind");
    return r;
  }();
  return rows;
}

const WallKindRow& wall_kind_row(WallKind kind) { return *wall_kind_rows()[static_cast<int>(kind)]; }

namespace {

// The rows' spellings, the rows of one word joined: "{dirichlet: number or exact}", ..., "or periodic".
std::string spellings(const char* WallKindRow::*value) {
  std::vector<std::string> parts;
  std::vector<const char*> words;
  for (const WallKindRow* r : wall_kind_rows()) {
    if (std::find(words.begin(), words.end(), std::string(r->word)) != words.end()) continue;
    words.push_back(r->word);
    if (r->bare) {
      parts.push_back(r->word);
      continue;
    }
    std::vector<std::string> values;
    for (const WallKindRow* same : wall_kind_rows())
      if (std::string(same->word) == r->word) values.push_back(same->*value);
    parts.push_back(fmt::format("{{{}: {}}}", r->word, fmt::join(values, " or ")));
  }
  // The bare words last: "..., {robin: ...} or periodic".
  std::stable_partition(parts.begin(), parts.end(), [](const std::string& p) { return p.front() == '{'; });
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : i + 1 == parts.size() ? " or " : ", ") + parts[i];
  return text;
}

}  // namespace

std::string wall_face_input_type() { return spellings(&WallKindRow::value_type); }

std::string wall_face_expected() { return spellings(&WallKindRow::value_text); }

BoundaryFace read_wall_face(detail::YamlSection& s, const std::string& key, BoundaryFace def) {
  const YAML::Node n = s.node(key);
  if (!n || n.IsNull()) return def;
  if (n.IsScalar()) {
    for (const WallKindRow* r : wall_kind_rows())
      if (r->bare && n.Scalar() == r->word) return r->read(s, key, YAML::Node());
    s.fail(key, "expected " + wall_face_expected());
  }
  if (!n.IsMap() || n.size() != 1) s.fail(key, "expected " + wall_face_expected());
  const std::string word = n.begin()->first.Scalar();
  const YAML::Node value = n.begin()->second;
  // The rows of the word that claim the value first (dirichlet: exact), then the one that takes any.
  for (const bool any : {false, true})
    for (const WallKindRow* r : wall_kind_rows())
      if (!r->bare && word == r->word && (any ? !r->claims : r->claims && r->claims(value))) return r->read(s, key, value);
  s.fail(key, fmt::format("unknown condition \"{}\" (expected {})", word, wall_face_expected()));
}

YAML::Node wall_face_node(const BoundaryFace& f) { return wall_kind_row(f.kind).write(f); }

namespace walls {

YAML::Node word_node(const char* word, const YAML::Node& value) {
  YAML::Node n(YAML::NodeType::Map);
  n[word] = value;
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

double read_number(detail::YamlSection& s, const std::string& key, const WallKindRow& row, const YAML::Node& value) {
  double v = 0.0;
  if (detail::decode(value, v)) return v;
  std::vector<std::string> values;  // every row's of the word: "a number or exact"
  for (const WallKindRow* r : wall_kind_rows())
    if (std::string(r->word) == row.word) values.push_back(r->value_text);
  s.fail(key, fmt::format("expected {}: {}, got {}", row.word, fmt::join(values, " or "),
                            value.IsScalar() ? value.Scalar() : std::string("a list or mapping")));
}

}  // namespace walls

}  // namespace cartex::core
