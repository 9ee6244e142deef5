#include "yaml_layers.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "cartex/core/error.hpp"
#include "cartex/core/input_keys.hpp"
#include "nearest_name.hpp"

namespace cartex::core::detail {
struct MarkOfCopy;
}  // namespace cartex::core::detail

// yaml-cpp sets a node's mark only while it parses (YAML::Clone's copies have none, and share what
// aliases share), yet a copy must keep its original's for its errors to be located. as_if, yaml-cpp's
// conversion helper, is a friend of Node: this specialization, for a type of the loader's own, sets
// the mark of a node the loader made.
namespace YAML {
template <>
struct as_if<cartex::core::detail::MarkOfCopy, void> {
  static void set(Node& node, const Mark& mark) { node.m_pNode->set_mark(mark); }
};
}  // namespace YAML

namespace cartex::core::detail {

namespace {

// Mappings and lists inside each other beyond this depth are an error (no input key needs more than
// 4): it bounds every recursion over the tree; yaml-cpp's own limit (its "bad file") lies far beyond.
constexpr int kMaxNesting = 100;

std::string shown_type(const YAML::Node& n) { return n.IsSequence() ? "a list" : n.IsMap() ? "a mapping" : "nothing"; }

std::string section_name(const std::string& path) { return path.empty() ? "(top level)" : path; }

// Splits "a.b.c" into its components; an empty component is an error.
std::vector<std::string> split_path(const std::string& origin, const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream ss(path);
  std::string part;
  while (std::getline(ss, part, '.')) parts.push_back(part);
  for (const auto& p : parts)
    if (p.empty()) throw InputError(fmt::format("{}: {}: empty key in the key path", origin, path));
  return parts;
}

// Where the parts of one parsed document are: in a file (at their line and column) or in the value
// of an override (the override as a whole).
struct Origin {
  std::string name;  // the file, or "--set key=value"
  bool is_file = true;

  std::string at(const YAML::Mark& mark) const {
    if (!is_file) return name;
    if (mark.is_null()) return name + ":1:1";
    return fmt::format("{}:{}:{}", name, mark.line + 1, mark.column + 1);
  }
};

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

// "unknown key ..." for `key` in `section` ("" for the top level): the likely intended key when one
// is close, and the keys the section has.
std::string unknown_key_text(const std::string& section, const std::string& key, const EquationInput& equation) {
  const std::vector<std::string> names = input_key_children(section, equation);
  if (names.empty()) return fmt::format("unknown key ({} takes a value, not keys)", section);
  const std::string path = section.empty() ? key : section + "." + key;
  const auto& foreign = equation.foreign_keys;  // physics.alpha in wave3d
  if (section == "physics" && std::find(foreign.begin(), foreign.end(), key) != foreign.end() && !is_input_path(path, equation))
    return fmt::format("unknown key for the {} equation (expected one of: {})", equation.name, fmt::join(names, ", "));
  const std::optional<std::string> meant = nearest_name(key, names);
  return fmt::format("unknown key{} (expected one of: {})", meant ? "; did you mean " + *meant + "?" : "",
                     fmt::join(names, ", "));
}

// Checks one parsed document (a file, or the value of an override at its key path) for what no input
// may hold: nesting deeper than kMaxNesting, keys that are not plain names, a key twice in one mapping
// (yaml-cpp would keep the first silently; layers and overrides replace keys on purpose, one mapping
// never), and unknown keys in the mappings that are sections of the key table. Done before the layers
// are merged, so that merging and reading meet only known sections; unknown keys thus come before any
// other error (a misspelt required key is not reported as missing).
class DocumentCheck {
 public:
  DocumentCheck(Origin origin, const EquationInput& equation) : origin_(std::move(origin)), equation_(equation) {}

  // Checks `node` at key path `path` (`shown`: as messages show it), `depth` levels deep; `section`:
  // whether `path` is a section of the key table.
  void check(const YAML::Node& node, const std::string& path, const std::string& shown, bool section, int depth) {
    if (!node.IsMap() && !node.IsSequence()) return;
    if (depth > kMaxNesting)
      throw InputError(fmt::format("{}: {}: mappings and lists nested deeper than {} levels", origin_.at(node.Mark()),
                                   section_name(shown), kMaxNesting));
    if (checked_before(node, section ? path : "", depth)) return;
    if (node.IsSequence()) {
      for (const auto& entry : node) check(entry, path, shown, false, depth + 1);
      return;
    }
    std::map<std::string, YAML::Mark> seen;
    for (const auto& kv : node) {
      if (!kv.first.IsScalar())
        throw InputError(fmt::format("{}: {}: expected a plain key name, got {} as a key", origin_.at(kv.first.Mark()),
                                     section_name(shown), shown_type(kv.first)));
      const std::string key = kv.first.Scalar();
      const std::string key_path = path.empty() ? key : path + "." + key;
      const std::string key_shown = shown.empty() ? shown_key(key) : shown + "." + shown_key(key);
      if (const auto [first, fresh] = seen.emplace(key, kv.first.Mark()); !fresh)
        throw InputError(fmt::format("{}: {}: duplicate key: first given at {} (a mapping holds each key once)",
                                     origin_.at(kv.first.Mark()), key_shown,
                                     origin_.is_file ? origin_.at(first->second) : "an earlier place of the value"));
      // A key holding '.' is not one key of the table even when it spells a path of it ("grid.n: ...").
      if (section && (key.empty() || key.find('.') != std::string::npos || !is_input_path(key_path, equation_)))
        throw InputError(fmt::format("{}: {}: {}", origin_.at(kv.first.Mark()), key_shown,
                                     unknown_key_text(path, key, equation_)));
      check(kv.second, key_path, key_shown, section && !input_key_children(key_path, equation_).empty(), depth + 1);
    }
  }

 private:
  // Whether `node` was checked before, at `path` (sections; "" elsewhere), at least `depth` levels
  // deep; records this check. Aliases share their node: checking it once per path and depth keeps the
  // work bounded where aliases nest aliases, and a cycle of aliases ends at the nesting limit.
  bool checked_before(const YAML::Node& node, const std::string& path, int depth) {
    auto& at_mark = checked_[{node.Mark().pos, path}];
    for (auto& [seen, seen_depth] : at_mark) {
      if (!seen.is(node)) continue;
      if (seen_depth >= depth) return true;
      seen_depth = depth;
      return false;
    }
    at_mark.emplace_back(node, depth);
    return false;
  }

  Origin origin_;
  const EquationInput& equation_;
  std::map<std::pair<int, std::string>, std::vector<std::pair<YAML::Node, int>>> checked_;  // (mark, path) -> checks
};

// The uses of aliases may add at most this many values to one document (each use is a copy of its
// anchor's value): a few aliases of aliases would otherwise make billions.
constexpr long kMaxAliasValues = 100000;

// A copy of a checked document that shares no node: yaml-cpp gives every use of an alias the anchor's
// own node, so an override through one use (a later file, --set, --unset) would change the others.
// Every node keeps its mark: errors in a use of an alias point at the anchored text.
class AliasCopies {
 public:
  explicit AliasCopies(Origin origin) : origin_(std::move(origin)) {}

  // The copy of `doc`, the value at key path `shown` (as messages show it; "" for a file).
  YAML::Node copy(const YAML::Node& doc, const std::string& shown) {
    YAML::Node out = shell(doc);
    fill(out, doc, shown, false);
    return out;
  }

 private:
  static YAML::Node shell(const YAML::Node& n) { return n.IsScalar() ? YAML::Node(n.Scalar()) : YAML::Node(n.Type()); }

  // Gives `out`, a shell of `from`, its mark, tag, style and a copy of each entry; built from the top,
  // so each new node joins the document's memory at once (yaml-cpp merges a subtree's memory whole).
  void fill(YAML::Node& out, const YAML::Node& from, const std::string& shown, bool in_alias) {
    if (!in_alias && !first_use(from)) {
      in_alias = true;
      use_ = fmt::format("{}: {}", origin_.at(from.Mark()), section_name(shown));
    }
    if (in_alias && ++added_ > kMaxAliasValues)
      throw InputError(fmt::format("{}: aliases add more than {} values (each use of one copies its anchor's value)", use_,
                                   kMaxAliasValues));
    YAML::as_if<MarkOfCopy, void>::set(out, from.Mark());
    out.SetTag(from.Tag());
    out.SetStyle(from.Style());
    if (from.IsSequence()) {
      for (const auto& entry : from) {
        YAML::Node e = shell(entry);
        out.push_back(e);
        fill(e, entry, shown, in_alias);
      }
    } else if (from.IsMap()) {
      for (const auto& kv : from) {  // DocumentCheck has rejected keys that are not scalars
        YAML::Node key = shell(kv.first), value = shell(kv.second);
        out.force_insert(key, value);
        fill(key, kv.first, shown, in_alias);
        const std::string name = shown_key(kv.first.Scalar());
        fill(value, kv.second, shown.empty() ? name : shown + "." + name, in_alias);
      }
    }
  }

  // Whether `n` is met for the first time (a later time is a use of an alias); records it.
  bool first_use(const YAML::Node& n) {
    auto& at_mark = seen_[n.Mark().pos];
    if (std::any_of(at_mark.begin(), at_mark.end(), [&n](const YAML::Node& seen) { return seen.is(n); })) return false;
    at_mark.push_back(n);
    return true;
  }

  Origin origin_;
  long added_ = 0;
  std::string use_;  // "FILE:LINE:COL: key.path" of the use of an alias being copied
  std::map<int, std::vector<YAML::Node>> seen_;  // mark position -> the nodes met there
};

// Where the second YAML document of `text` starts, if it has one (YAML::Load reads the first only).
std::optional<YAML::Mark> second_document(const std::string& text) {
  // Counts the documents the parser starts and stops it at the second, unread.
  struct Documents : YAML::EventHandler {
    struct Second {
      YAML::Mark mark;
    };
    int started = 0;
    void OnDocumentStart(const YAML::Mark& mark) override {
      if (++started == 2) throw Second{mark};
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
  };
  std::istringstream in(text);
  YAML::Parser parser(in);
  Documents documents;
  try {
    while (parser.HandleNextDocument(documents)) {
    }
  } catch (const Documents::Second& second) {
    return second.mark;
  }
  return std::nullopt;
}

// Parses and checks `text` of `origin`: a file (`path` "") or the value of an override at key path
// `path`; yaml-cpp's errors are located input errors. The document returned shares no node.
YAML::Node parse(const std::string& text, const Origin& origin, const std::string& path, const EquationInput& equation) {
  const std::string what = origin.is_file ? "invalid YAML" : "invalid YAML value";
  const std::string at_path = origin.is_file ? "(syntax)" : path;
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
    if (const std::optional<YAML::Mark> second = second_document(text))
      throw InputError(fmt::format("{}: {}: a second YAML document (an input holds one; --- starts another)",
                                   origin.at(*second), at_path));
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's guard, which says only "bad file"
    throw InputError(fmt::format("{}: {}: {}: mappings and lists nested deeper than {} levels", origin.at(e.mark), at_path,
                                 what, kMaxNesting));
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: {}: {}: {}", origin.at(e.mark), at_path, what, e.msg));
  }
  DocumentCheck(origin, equation).check(doc, path, path, !input_key_children(path, equation).empty(), 1);
  return AliasCopies(origin).copy(doc, path);
}

// What a file that is neither a regular file nor a directory is, for its error.
std::string special_file_text(std::filesystem::file_type type) {
  switch (type) {
    case std::filesystem::file_type::fifo: return "a FIFO";
    case std::filesystem::file_type::character: return "a character device";
    case std::filesystem::file_type::block: return "a block device";
    case std::filesystem::file_type::socket: return "a socket";
    default: return "a special file";
  }
}

// The text of input file `name` (or its given text); a missing, unreadable, non-regular or empty file is an error.
std::string read_input(const std::string& name, const InputSources& in) {
  auto given = in.texts.find(name);
  std::string text;
  if (given != in.texts.end()) {
    text = given->second;
  } else {
    // Known before opening: opening a FIFO waits for a writer, and a device may never end (/dev/zero).
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(name, ec);
    if (std::filesystem::is_directory(status))
      throw InputError(fmt::format("{}:1:1: (file): is a directory, not an input file", name));
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
      throw InputError(fmt::format("{}:1:1: (file): is {}, not a regular file", name, special_file_text(status.type())));
    std::ifstream f(name, std::ios::binary);
    if (!f) throw InputError(fmt::format("{}:1:1: (file): cannot open the input file for reading", name));
    text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (f.bad()) throw InputError(fmt::format("{}:1:1: (file): cannot read the input file", name));
  }
  // A comment-only file is a deliberate empty layer; a file without a single byte is more likely a
  // truncated or wrong one.
  if (text.empty()) throw InputError(fmt::format("{}:1:1: (file): the input file is empty (0 bytes)", name));
  return text;
}

// Parses input file `name` into a mapping (empty when the file holds only comments).
YAML::Node parse_input(const std::string& name, const InputSources& in, const EquationInput& equation) {
  const YAML::Node root = parse(read_input(name, in), Origin{name, true}, "", equation);
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
    const std::string key = kv.first.Scalar();  // DocumentCheck has rejected other keys
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

// The components of `path` once each names an input key or section; `origin` names the override.
std::vector<std::string> checked_path(const std::string& origin, const std::string& path, const EquationInput& equation) {
  const std::vector<std::string> parts = split_path(origin, path);
  std::string prefix;
  for (const auto& part : parts) {
    const std::string section = prefix;
    prefix = prefix.empty() ? part : prefix + "." + part;
    if (!is_input_path(prefix, equation))
      throw InputError(fmt::format("{}: {}: {}", origin, prefix, unknown_key_text(section, part, equation)));
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

// Applies "--set key.path=value" to the tree.
void apply_set(YamlSource& s, const std::string& setting) {
  const std::string origin = "--set " + setting;
  const auto eq = setting.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError(fmt::format("{}: expected key.path=value", origin));
  const std::string path = setting.substr(0, eq);
  const std::vector<std::string> parts = checked_path(origin, path, s.equation);
  const YAML::Node value = parse(setting.substr(eq + 1), Origin{origin, false}, path, s.equation);
  s.overrides[path] = origin;
  if (value.IsNull()) return remove_key(s, path, parts);
  forget_below(s, path);
  parent_of(s.root, parts)[parts.back()] = value;
}

}  // namespace

YamlSection load_yaml(const InputSources& in, const EquationInput& equation) {
  auto src = std::make_shared<YamlSource>();
  src->equation = equation;
  if (in.files.empty()) throw InputError("no input file given");
  src->first_file = in.files.front();
  src->root = parse_input(in.files.front(), in, equation);
  for (size_t i = 1; i < in.files.size(); ++i)
    merge(src->root, parse_input(in.files[i], in, equation), "", in.files[i], *src);

  for (const auto& path : in.unsets) {
    const std::string origin = "--unset " + path;
    remove_key(*src, path, checked_path(origin, path, equation));
    src->overrides[path] = origin;
  }
  for (const auto& setting : in.sets) apply_set(*src, setting);

  src->read_at[""] = Origin{src->first_file, true}.at(src->root.Mark());
  return YamlSection(src, src->root, "");
}

}  // namespace cartex::core::detail

namespace cartex::core {

void read_input_files(InputSources& in) {
  for (const std::string& name : in.files)
    if (in.texts.find(name) == in.texts.end()) in.texts[name] = detail::read_input(name, in);
}

}  // namespace cartex::core
