#pragma once
// Internal: a checked, location-aware view of a YAML tree built from layered inputs (yaml_layers.hpp).
// Every read must be a key of the input key table (input_keys.hpp) and records the key as read, with
// its location, so `finish()` can reject the others and later checks can name where a key was given;
// every failure names FILE:LINE:COL (or the --set/--unset override) and the full key path.
#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"

namespace cartex::core::detail {

// Shared state of one input: the merged tree, where each part of it came from, and where each key
// read was given.
struct YamlSource {
  EquationInput equation;                        // the equation the input is for (its physics keys)
  std::string first_file;                        // the file that gave the root mapping
  YAML::Node root;
  std::map<std::string, std::string> files;      // key path -> the later file that gave its value
  std::map<std::string, std::string> overrides;  // key path -> "--set key=value" or "--unset key"
  std::map<std::string, std::string> read_at;    // key path -> "FILE:LINE:COL" (or override) of every key read

  // The file whose text holds the value at `path`.
  const std::string& file_of(const std::string& path) const;
};

// The conversions of a scalar that every read of a value goes through (the typed reads below and the
// loader's own lists): false for anything else than a scalar of that type. Numbers are finite (not
// .nan, .inf: no run computes with them, and a resolved input could not hold them); integers are
// decimal, an optional sign and digits as YAML 1.2's core schema reads them (yaml-cpp would read
// YAML 1.1's 010 as 8 and 0x10 as 16).
bool decode(const YAML::Node& n, double& v);
bool decode(const YAML::Node& n, long& v);
bool decode(const YAML::Node& n, int& v);
bool decode(const YAML::Node& n, bool& v);

// One mapping in the input (or an absent one, read as empty) at a dotted key path.
class YamlSection {
 public:
  YamlSection(std::shared_ptr<YamlSource> src, YAML::Node node, std::string path);

  // The sub-mapping `key` (absent reads as empty); a non-mapping value is an error.
  YamlSection section(const std::string& key);
  bool has(const std::string& key) const;
  // The raw node of `key` (marks it as read and records its location); undefined when absent.
  YAML::Node node(const std::string& key);

  // The value of `key`: as given, or when absent the default of its row in the input schema
  // (input_keys.hpp), which must have one (a read of a key without a default value is a loader bug).
  YAML::Node value(const std::string& key);

  // Typed reads of value(key): `expected` is the phrase used in the error ("a positive integer").
  long get_long(const std::string& key, const std::string& expected);
  double get_double(const std::string& key, const std::string& expected);
  bool get_bool(const std::string& key, const std::string& expected = "true or false");
  std::string get_string(const std::string& key, const std::string& expected);
  // True when `key` (or its default) is the word auto (a key that may be chosen by measurement).
  bool is_auto(const std::string& key);
  // Typed reads of a key that may be absent (no default value: required, derived or an alternative).
  std::optional<long> get_optional_long(const std::string& key, const std::string& expected);
  std::optional<double> get_optional_double(const std::string& key, const std::string& expected);
  std::optional<std::string> get_optional_string(const std::string& key, const std::string& expected);
  std::vector<long> get_long_list(const std::string& key, const std::string& expected);
  std::vector<double> get_double_list(const std::string& key, const std::string& expected);

  // Throws InputError located at `key` (its value, or this mapping when absent).
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  // Throws InputError located at `entry`, an entry of the list `key` (at the override that gave it, if one did).
  [[noreturn]] void fail_entry(const std::string& key, const YAML::Node& entry, const std::string& what) const;
  // Rejects the keys that were not read: keys of the table that do not apply here.
  void finish() const;

  // "FILE:LINE:COL" (or "--set ...") of `key`, for checks that happen after loading.
  std::string where(const std::string& key) const;
  // Where every key read so far was given (the root section's location under "").
  const std::map<std::string, std::string>& read_locations() const { return src_->read_at; }

  std::string key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  // The dotted path of this mapping ("" for the top level) and the equation the input is for.
  const std::string& path() const { return path_; }
  const EquationInput& equation() const { return src_->equation; }

 private:
  template <class T>
  std::vector<T> get_list(const std::string& key, const std::string& expected);
  std::string location(const std::string& path, const YAML::Node& node) const;

  std::shared_ptr<YamlSource> src_;
  YAML::Node node_;
  std::string path_;
  std::set<std::string> known_;
};

}  // namespace cartex::core::detail
