#include "yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

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

// `key` as an error message shows it in a key path: as it is when it is a plain name (letters, digits,
// '_', '-'), else in double quotes, so a key holding ':', '.', ' ' or nothing cannot be misread as
// part of the message or of the path.
std::string shown_key(const std::string& key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-';
  });
  if (plain) return key;
  std::string out = "\"";
  for (const char c : key) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
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

void YamlSection::fail_here(const std::string& what) const {
  throw InputError(fmt::format("{}: {}: {}", location(path_, node_), path_.empty() ? "(top level)" : path_, what));
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
  for (const auto& kv : node_) {
    if (!kv.first.IsScalar()) {
      throw InputError(fmt::format("{}: {}: expected a plain key name, got {} as a key", location(path_ + ".?", kv.first),
                                   path_.empty() ? "(top level)" : path_, show(kv.first)));
    }
    const std::string key = kv.first.Scalar();
    if (known_.count(key)) continue;
    const std::string path = key_path(key);
    const std::string loc = location(path, kv.first);
    if (const InputKey* row = find_input_key(path, src_->equation); row && !row->applies.empty())
      throw InputError(fmt::format("{}: {}: not used here: it applies only when {}", loc, path, row->applies));
    throw InputError(fmt::format("{}: {}: unknown key (expected one of: {})", loc, key_path(shown_key(key)),
                                 fmt::join(input_key_children(path_, src_->equation), ", ")));
  }
}

namespace {

// "FILE:L:C" of a YAML exception in `file`.
std::string mark_text(const std::string& file, const YAML::Mark& mark) {
  if (mark.is_null()) return file + ":1:1";
  return fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
}

// The text of input file `name` (or its given text); a missing, unreadable or non-regular file is an error.
std::string read_input(const std::string& name, const InputSources& in) {
  if (auto t = in.texts.find(name); t != in.texts.end()) return t->second;
  std::error_code ec;
  if (std::filesystem::is_directory(name, ec))
    throw InputError(fmt::format("{}:1:1: (file): is a directory, not an input file", name));
  std::ifstream f(name, std::ios::binary);
  if (!f) throw InputError(fmt::format("{}:1:1: (file): cannot open the input file for reading", name));
  std::ostringstream text;
  text << f.rdbuf();
  if (f.bad() || !text) throw InputError(fmt::format("{}:1:1: (file): cannot read the input file", name));
  return text.str();
}

// Parses input file `name` into a mapping (empty when the file is).
YAML::Node parse_input(const std::string& name, const InputSources& in) {
  const std::string text = read_input(name, in);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: (syntax): invalid YAML: {}", mark_text(name, e.mark), e.msg));
  }
  if (root.IsNull()) return YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap())
    throw InputError(fmt::format("{}:1:1: (top level): expected a mapping of sections (grid, physics, ...)", name));
  return root;
}

// The value of `key` in mapping `map`, without inserting it.
YAML::Node lookup(const YAML::Node& map, const std::string& key) {
  const YAML::Node m = map;
  return m[key];
}

// Forgets the origins recorded under `path` (its value is replaced or removed).
void forget_below(YamlSource& s, const std::string& path) {
  for (auto it = s.files.begin(); it != s.files.end();)
    it = (it->first == path || it->first.rfind(path + ".", 0) == 0) ? s.files.erase(it) : std::next(it);
}

// Merges mapping `from` of input file `file` into `into` at key path `prefix`: mappings merge key by
// key, any other value replaces, a null value removes the key.
void merge(YAML::Node into, const YAML::Node& from, const std::string& prefix, const std::string& file, YamlSource& s) {
  for (const auto& kv : from) {
    if (!kv.first.IsScalar())
      throw InputError(fmt::format("{}: {}: expected a plain key name, got {} as a key", mark_text(file, kv.first.Mark()),
                                   prefix.empty() ? "(top level)" : prefix, show(kv.first)));
    const std::string key = kv.first.Scalar();
    const std::string path = prefix.empty() ? key : prefix + "." + key;
    YAML::Node cur = lookup(into, key);
    if (cur && cur.IsMap() && kv.second.IsMap()) {
      merge(cur, kv.second, path, file, s);
      continue;
    }
    forget_below(s, path);
    into.remove(key);
    if (kv.second.IsNull()) continue;
    into.force_insert(kv.first, kv.second);  // the key node itself, so errors at the key point into `file`
    s.files[path] = file;
  }
}

// The mapping at key path `parts` (all but the last) of `root`, created as needed.
YAML::Node parent_of(YAML::Node root, const std::vector<std::string>& parts) {
  YAML::Node cur = root;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const YAML::Node found = lookup(cur, parts[i]);  // may be invalid (absent): only test it
    if (!found || !found.IsMap()) cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
    YAML::Node next = cur[parts[i]];
    cur.reset(next);
  }
  return cur;
}

// Checks that `path` names an input key or section; `origin` names the override.
std::vector<std::string> checked_path(const std::string& origin, const std::string& path, Equation equation) {
  auto parts = split_path(path);
  for (const auto& p : parts)
    if (p.empty()) throw InputError(fmt::format("{}: {}: empty key in the key path", origin, path));
  if (!is_input_path(path, equation)) {
    const std::string parent = path.substr(0, path.rfind('.') == std::string::npos ? 0 : path.rfind('.'));
    throw InputError(fmt::format("{}: {}: unknown key (expected one of: {})", origin, path,
                                 fmt::join(input_key_children(is_input_path(parent, equation) ? parent : "", equation), ", ")));
  }
  return parts;
}

// Removes the key at `path` from the tree (nothing when absent).
void remove_key(YamlSource& s, const std::string& path, const std::vector<std::string>& parts) {
  YAML::Node cur = s.root;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = lookup(cur, parts[i]);
    if (!next || !next.IsMap()) return;
    cur.reset(next);
  }
  cur.remove(parts.back());
  forget_below(s, path);
}

}  // namespace

YamlSection load_yaml(const InputSources& in, Equation equation) {
  auto src = std::make_shared<YamlSource>();
  src->equation = equation;
  if (in.files.empty()) throw InputError("no input file given");
  src->first_file = in.files.front();
  src->root = parse_input(in.files.front(), in);
  for (size_t i = 1; i < in.files.size(); ++i) merge(src->root, parse_input(in.files[i], in), "", in.files[i], *src);

  for (const auto& path : in.unsets) {
    const std::string origin = "--unset " + path;
    remove_key(*src, path, checked_path(origin, path, equation));
    src->overrides[path] = origin;
  }
  for (const auto& o : in.sets) {
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
    } catch (const YAML::Exception& e) {
      throw InputError(fmt::format("{}: {}: invalid YAML value: {}", origin, path, e.msg));
    }
    src->overrides[path] = origin;
    if (value.IsNull()) {
      remove_key(*src, path, checked_path(origin, path, equation));
      continue;
    }
    forget_below(*src, path);
    parent_of(src->root, parts)[parts.back()] = value;
  }
  return YamlSection(src, src->root, "");
}

}  // namespace cartex::core::detail
