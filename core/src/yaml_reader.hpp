#pragma once
// Internal: a checked, location-aware view of a YAML tree. Every read records the key as known, so
// `finish()` can reject unknown keys; every failure names FILE:LINE:COL (or the --set override) and the
// full key path.
#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cartex::detail {

// Shared state of one input: file name, root node, and which key paths came from --set.
struct YamlSource {
  std::string file;
  YAML::Node root;
  std::map<std::string, std::string> overrides;  // key path -> "--set key=value"
};

// One mapping in the input (or an absent one, read as empty) at a dotted key path.
class YamlSection {
 public:
  YamlSection(std::shared_ptr<const YamlSource> src, YAML::Node node, std::string path);

  // The sub-mapping `key` (absent reads as empty); a non-mapping value is an error.
  YamlSection section(const std::string& key);
  bool has(const std::string& key) const;
  // The raw node of `key` (marks it as known); undefined when absent.
  YAML::Node node(const std::string& key);

  // Typed reads: `expected` is the phrase used in the error ("a positive integer").
  long get_long(const std::string& key, long def, const std::string& expected);
  double get_double(const std::string& key, double def, const std::string& expected);
  bool get_bool(const std::string& key, bool def);
  std::string get_string(const std::string& key, const std::string& def, const std::string& expected);
  std::optional<double> get_optional_double(const std::string& key, const std::string& expected);
  std::vector<long> get_long_list(const std::string& key, const std::string& expected);
  std::vector<double> get_double_list(const std::string& key, const std::string& expected);

  // Throws InputError located at `key` (its value, or this mapping when absent).
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  // Throws InputError located at this mapping.
  [[noreturn]] void fail_here(const std::string& what) const;
  // Rejects keys that were never read.
  void finish() const;

  // "FILE:LINE:COL" (or "--set ...") of `key`, for checks that happen after loading.
  std::string where(const std::string& key) const;

  std::string key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

 private:
  template <class T>
  std::vector<T> get_list(const std::string& key, const std::string& expected);
  std::string location(const std::string& path, const YAML::Node& node) const;

  std::shared_ptr<const YamlSource> src_;
  YAML::Node node_;
  std::string path_;
  std::set<std::string> known_;
};

// Loads `file`, applies `overrides` ("a.b=value", value parsed as YAML), returns the root section.
YamlSection load_yaml(const std::string& file, const std::vector<std::string>& overrides);

}  // namespace cartex::detail
