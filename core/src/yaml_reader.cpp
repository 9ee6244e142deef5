#include "yaml_reader.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "cartex/core/error.hpp"
#include "cartex/core/input_keys.hpp"

namespace cartex::core::detail {

namespace {

std::string show(const YAML::Node& n) {
  if (n.IsScalar()) return fmt::format("\"{}\"", n.Scalar());
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "nothing";
}

template <class T>
bool decode_integer(const YAML::Node& n, T& v) {
  if (!n.IsScalar()) return false;
  const std::string& text = n.Scalar();
  const char* first = text.data();
  const char* const last = first + text.size();
  // std::from_chars reads base 10 after an optional '-' only: a '+' is skipped here, "+-1" refused.
  if (first != last && *first == '+' && (++first == last || *first == '-')) return false;
  const auto [end, ec] = std::from_chars(first, last, v);
  return ec == std::errc() && end == last;
}

}  // namespace

bool decode(const YAML::Node& n, double& v) { return n.IsScalar() && YAML::convert<double>::decode(n, v) && std::isfinite(v); }
bool decode(const YAML::Node& n, long& v) { return decode_integer(n, v); }
bool decode(const YAML::Node& n, int& v) { return decode_integer(n, v); }
bool decode(const YAML::Node& n, bool& v) { return n.IsScalar() && YAML::convert<bool>::decode(n, v); }

YamlSection::YamlSection(std::shared_ptr<YamlSource> src, YAML::Node node, std::string path)
    : src_(std::move(src)), node_(std::move(node)), path_(std::move(path)) {}

std::string YamlSection::location(const std::string& path, const YAML::Node& node) const {
  // An override anywhere on the path owns the location.
  for (const auto& [key, origin] : src_->overrides) {
    if (path == key || path.rfind(key + ".", 0) == 0 || key.rfind(path + ".", 0) == 0) return origin;
  }
  if (node && node.Mark().line >= 0)
    return fmt::format("{}:{}:{}", src_->file_of(path), node.Mark().line + 1, node.Mark().column + 1);
  if (node_ && node_.Mark().line >= 0)
    return fmt::format("{}:{}:{}", src_->file_of(path_), node_.Mark().line + 1, node_.Mark().column + 1);
  return fmt::format("{}:1:1", src_->file_of(path_));
}

const std::string& YamlSource::file_of(const std::string& path) const {
  const std::string* best = &first_file;
  size_t best_len = 0;
  for (const auto& [key, file] : files)
    if ((path == key || path.rfind(key + ".", 0) == 0) && key.size() >= best_len) {
      best = &file;
      best_len = key.size();
    }
  return *best;
}

void YamlSection::fail_entry(const std::string& key, const YAML::Node& entry, const std::string& what) const {
  const std::string path = key_path(key);
  std::string at = where(key);
  if (at.rfind(src_->file_of(path) + ":", 0) == 0 && entry.Mark().line >= 0)
    at = fmt::format("{}:{}:{}", src_->file_of(path), entry.Mark().line + 1, entry.Mark().column + 1);
  throw InputError(fmt::format("{}: {}: {}", at, path, what));
}

void YamlSection::fail(const std::string& key, const std::string& what) const {
  const YAML::Node map = node_;
  YAML::Node n = (map && map.IsMap()) ? map[key] : YAML::Node();
  std::string path = key_path(key);
  throw InputError(fmt::format("{}: {}: {}", location(path, n), path, what));
}

std::string YamlSection::where(const std::string& key) const {
  const YAML::Node map = node_;
  YAML::Node n = (map && map.IsMap()) ? map[key] : YAML::Node();
  return location(key_path(key), n);
}

bool YamlSection::has(const std::string& key) const {
  const YAML::Node map = node_;
  return map && map.IsMap() && map[key] && !map[key].IsNull();
}

YAML::Node YamlSection::node(const std::string& key) {
  // The key table is the schema: a read of a key it does not list is a bug in the loader.
  if (!is_input_path(key_path(key), src_->equation))
    throw Error(fmt::format("internal: the loader reads {}, which the input key table does not list", key_path(key)));
  known_.insert(key);
  src_->read_at.emplace(key_path(key), where(key));
  if (!node_ || !node_.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node map = node_;  // const lookup: never inserts the key
  return map[key];
}

YamlSection YamlSection::section(const std::string& key) {
  YAML::Node n = node(key);
  if (n && !n.IsNull() && !n.IsMap()) fail(key, fmt::format("expected a mapping of keys, got {}", show(n)));
  return YamlSection(src_, (n && n.IsMap()) ? n : YAML::Node(YAML::NodeType::Undefined), key_path(key));
}

YAML::Node YamlSection::value(const std::string& key) {
  YAML::Node n = node(key);
  if (n && !n.IsNull()) return n;
  const std::optional<InputKey> row = find_input_key(key_path(key), src_->equation);
  if (!row || row->def.kind != KeyDefault::Kind::kValue)
    throw Error(fmt::format("internal: the loader reads a default of {}, which has none in the input key table", key_path(key)));
  return YAML::Load(row->def.text);
}

namespace {

template <class T>
T decoded(YamlSection& s, const std::string& key, const YAML::Node& n, const std::string& expected) {
  T v{};
  if (!decode(n, v)) s.fail(key, fmt::format("expected {}, got {}", expected, show(n)));
  return v;
}

}  // namespace

long YamlSection::get_long(const std::string& key, const std::string& expected) {
  return decoded<long>(*this, key, value(key), expected);
}

double YamlSection::get_double(const std::string& key, const std::string& expected) {
  return decoded<double>(*this, key, value(key), expected);
}

bool YamlSection::get_bool(const std::string& key, const std::string& expected) {
  return decoded<bool>(*this, key, value(key), expected);
}

std::string YamlSection::get_string(const std::string& key, const std::string& expected) {
  const YAML::Node n = value(key);
  if (!n.IsScalar()) fail(key, fmt::format("expected {}, got {}", expected, show(n)));
  return n.Scalar();
}

bool YamlSection::is_auto(const std::string& key) {
  const YAML::Node n = value(key);
  return n.IsScalar() && n.Scalar() == "auto";
}

std::optional<long> YamlSection::get_optional_long(const std::string& key, const std::string& expected) {
  const YAML::Node n = node(key);
  if (!n || n.IsNull()) return std::nullopt;
  return decoded<long>(*this, key, n, expected);
}

std::optional<double> YamlSection::get_optional_double(const std::string& key, const std::string& expected) {
  const YAML::Node n = node(key);
  if (!n || n.IsNull()) return std::nullopt;
  return decoded<double>(*this, key, n, expected);
}

std::optional<std::string> YamlSection::get_optional_string(const std::string& key, const std::string& expected) {
  const YAML::Node n = node(key);
  if (!n || n.IsNull()) return std::nullopt;
  if (!n.IsScalar()) fail(key, fmt::format("expected {}, got {}", expected, show(n)));
  return n.Scalar();
}

template <class T>
std::vector<T> YamlSection::get_list(const std::string& key, const std::string& expected) {
  YAML::Node n = node(key);
  std::vector<T> out;
  if (!n || n.IsNull()) return out;
  if (!n.IsSequence()) fail(key, fmt::format("expected {}, got {}", expected, show(n)));
  for (const auto& e : n) {
    T v{};
    if (!decode(e, v)) fail(key, fmt::format("expected {}, got an entry {}", expected, show(e)));
    out.push_back(v);
  }
  return out;
}

std::vector<long> YamlSection::get_long_list(const std::string& key, const std::string& expected) {
  return get_list<long>(key, expected);
}

std::vector<double> YamlSection::get_double_list(const std::string& key, const std::string& expected) {
  return get_list<double>(key, expected);
}

void YamlSection::finish() const {
  if (!node_ || !node_.IsMap()) return;
  for (const auto& kv : node_) {
    const std::string key = kv.first.Scalar();
    if (known_.count(key)) continue;
    const std::string path = key_path(key);
    const std::optional<InputKey> row = find_input_key(path, src_->equation);
    // Unknown keys were rejected before merging (yaml_layers.cpp): a key left here that always applies
    // is a loader bug.
    if (!row || row->applies.empty())
      throw Error(fmt::format("internal: the loader did not read {}, a key of the input key table", path));
    throw InputError(fmt::format("{}: {}: not used here: it applies only when {}", location(path, kv.first), path,
                                 markdown_as_plain_text(row->applies)));
  }
}

}  // namespace cartex::core::detail
