#pragma once
// The input schema: one table of every key the loader accepts, with its type, default, meaning and
// when it applies; the physics keys of an equation come from its row (equation_input.hpp) and join the
// table there. From this table come
//   - the loader's defaults (YamlSection reads an absent key as the table's default value),
//   - the keys the loader accepts (any other is an unknown key) and "not used here" errors,
//   - `--help-input`,
//   - the resolved YAML (each row writes its value back: core/src/input_schema.hpp),
//   - the key tables of docs/input.md (input_keys_markdown; a test compares them with the page).
#include <optional>
#include <string>
#include <vector>

#include "cartex/core/config.hpp"

namespace cartex::core {

// The default of an input key.
//   kind       text holds                                   shown as
//   kValue     the value as YAML, read when the key is absent   the value ("100", "auto", "[u]")
//   kRequired  when it is required ("" = always)                "required" or "required (custom)"
//   kDerived   how it follows from other keys                   that text ("7pt in 3D, 5pt in 2D")
//   kNone      nothing: the key is one of alternatives          "-"
struct KeyDefault {
  enum class Kind { kValue, kRequired, kDerived, kNone };
  Kind kind = Kind::kNone;
  std::string text;

  static KeyDefault value(std::string yaml) { return {Kind::kValue, std::move(yaml)}; }
  static KeyDefault required(std::string when = "") { return {Kind::kRequired, std::move(when)}; }
  static KeyDefault derived(std::string how) { return {Kind::kDerived, std::move(how)}; }
  static KeyDefault none() { return {Kind::kNone, ""}; }
  // As --help-input prints it (the table above's last column).
  std::string shown() const;
};

// One input key. `type` and `meaning` are Markdown (backticks, links), as docs/input.md shows them;
// --help-input prints them as plain text.
struct InputKey {
  std::string path;     // dotted key path, e.g. "grid.n"
  std::string type;     // what the value is, e.g. "list of 2 or 3 positive integers"
  KeyDefault def;       // the default
  std::string meaning;  // what it does
  std::string applies;  // when the key is used, e.g. "`init.type` is `gaussian`"; empty: always
};

// The keys every equation has, in the order of docs/input.md (an equation's physics keys go before
// physics.dt).
std::vector<InputKey> common_input_keys();

// Every key of `equation`, in the order of docs/input.md.
std::vector<InputKey> input_keys(const EquationInput& equation);

// The row of `path` for `equation`, or nothing when the key does not exist for it.
std::optional<InputKey> find_input_key(const std::string& path, const EquationInput& equation);

// Whether `path` is a key or a section ("grid", "" for the top level) for `equation`.
bool is_input_path(const std::string& path, const EquationInput& equation);

// The names directly under `section` ("" for the top level) for `equation`, sorted.
std::vector<std::string> input_key_children(const std::string& section, const EquationInput& equation);

// The text of `--help-input`: one block per key of `equation` (path, type, default, meaning).
std::string input_keys_help(const EquationInput& equation);

// Markdown as plain text: `code` -> code, **bold** -> bold, [text](target) -> text.
std::string markdown_as_plain_text(const std::string& md);

// `keys` as docs/input.md's Markdown table (key, type, default, meaning; "applies" joins the meaning).
std::string input_keys_markdown(const std::vector<InputKey>& keys);

}  // namespace cartex::core
