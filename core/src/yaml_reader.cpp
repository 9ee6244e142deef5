#include "yaml_reader.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "cartex/core/error.hpp"

namespace cartex::detail {

namespace {

std::string show(const YAML::Node& n) {
  if (n.IsScalar()) return fmt::format("\"{}\"", n.Scalar());
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "nothing";
}

// Splits "a.b.c" into its components; empty components are an error.
std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream ss(path);
  std::string part;
  while (std::getline(ss, part, '.')) parts.push_back(part);
  return parts;
}

}  // namespace

YamlSection::YamlSection(std::shared_ptr<const YamlSource> src, YAML::Node node, std::string path)
    : src_(std::move(src)), node_(std::move(node)), path_(std::move(path)) {}

std::string YamlSection::location(const std::string& path, const YAML::Node& node) const {
  // An override anywhere on the path owns the location.
  for (const auto& [key, origin] : src_->overrides) {
    if (path == key || path.rfind(key + ".", 0) == 0 || key.rfind(path + ".", 0) == 0) return origin;
  }
  if (node && node.Mark().line >= 0)
    return fmt::format("{}:{}:{}", src_->file, node.Mark().line + 1, node.Mark().column + 1);
  if (node_ && node_.Mark().line >= 0)
    return fmt::format("{}:{}:{}", src_->file, node_.Mark().line + 1, node_.Mark().column + 1);
  return fmt::format("{}:1:1", src_->file);
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

void YamlSection::fail_here(const std::string& what) const {
  throw InputError(fmt::format("{}: {}: {}", location(path_, node_), path_.empty() ? "(top level)" : path_, what));
}

bool YamlSection::has(const std::string& key) const {
  const YAML::Node map = node_;
  return map && map.IsMap() && map[key] && !map[key].IsNull();
}

YAML::Node YamlSection::node(const std::string& key) {
  known_.insert(key);
  if (!node_ || !node_.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node map = node_;  // const lookup: never inserts the key
  return map[key];
}

YamlSection YamlSection::section(const std::string& key) {
  YAML::Node n = node(key);
  if (n && !n.IsNull() && !n.IsMap()) fail(key, fmt::format("expected a mapping of keys, got {}", show(n)));
  return YamlSection(src_, (n && n.IsMap()) ? n : YAML::Node(YAML::NodeType::Undefined), key_path(key));
}

long YamlSection::get_long(const std::string& key, long def, const std::string& expected) {
  YAML::Node n = node(key);
  if (!n || n.IsNull()) return def;
  long v = 0;
  if (!n.IsScalar() || !YAML::convert<long>::decode(n, v)) fail(key, fmt::format("expected {}, got {}", expected, show(n)));
  return v;
}

double YamlSection::get_double(const std::string& key, double def, const std::string& expected) {
  auto v = get_optional_double(key, expected);
  return v ? *v : def;
}

std::optional<double> YamlSection::get_optional_double(const std::string& key, const std::string& expected) {
  YAML::Node n = node(key);
  if (!n || n.IsNull()) return std::nullopt;
  double v = 0;
  if (!n.IsScalar() || !YAML::convert<double>::decode(n, v)) fail(key, fmt::format("expected {}, got {}", expected, show(n)));
  return v;
}

bool YamlSection::get_bool(const std::string& key, bool def) {
  YAML::Node n = node(key);
  if (!n || n.IsNull()) return def;
  bool v = false;
  if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v)) fail(key, fmt::format("expected true or false, got {}", show(n)));
  return v;
}

std::string YamlSection::get_string(const std::string& key, const std::string& def, const std::string& expected) {
  YAML::Node n = node(key);
  if (!n || n.IsNull()) return def;
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
    if (!e.IsScalar() || !YAML::convert<T>::decode(e, v)) fail(key, fmt::format("expected {}, got an entry {}", expected, show(e)));
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
  std::vector<std::string> names(known_.begin(), known_.end());
  for (const auto& kv : node_) {
    const std::string key = kv.first.as<std::string>();
    if (known_.count(key)) continue;
    std::string path = key_path(key);
    std::string loc = location(path, kv.first);
    throw InputError(fmt::format("{}: {}: unknown key (expected one of: {})", loc, path, fmt::join(names, ", ")));
  }
}

YamlSection load_yaml(const std::string& file, const std::vector<std::string>& overrides) {
  auto src = std::make_shared<YamlSource>();
  src->file = file;
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}:1:1: (file): cannot open the input file for reading", file));
  try {
    src->root = YAML::Load(in);
  } catch (const YAML::ParserException& e) {
    throw InputError(fmt::format("{}:{}:{}: (syntax): invalid YAML: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (src->root.IsNull()) src->root = YAML::Node(YAML::NodeType::Map);
  if (!src->root.IsMap())
    throw InputError(fmt::format("{}:1:1: (top level): expected a mapping of sections (grid, physics, ...)", file));

  for (const auto& o : overrides) {
    const std::string origin = "--set " + o;
    auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(fmt::format("{}: expected key.path=value", origin));
    const std::string path = o.substr(0, eq);
    auto parts = split_path(path);
    for (const auto& p : parts)
      if (p.empty()) throw InputError(fmt::format("{}: {}: empty key in the key path", origin, path));
    YAML::Node value;
    try {
      value = YAML::Load(o.substr(eq + 1));
    } catch (const YAML::ParserException& e) {
      throw InputError(fmt::format("{}: {}: invalid YAML value: {}", origin, path, e.msg));
    }
    YAML::Node cur = src->root;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      YAML::Node next = cur[parts[i]];
      if (!next || !next.IsMap()) {
        cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
        next = cur[parts[i]];
      }
      cur.reset(next);
    }
    cur[parts.back()] = value;
    src->overrides[path] = origin;
  }
  return YamlSection(src, src->root, "");
}

}  // namespace cartex::detail
