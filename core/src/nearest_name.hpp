#pragma once
// Internal: the name a misspelt one most likely meant, for "did you mean ...?" in input errors.
#include <optional>
#include <string>
#include <vector>

namespace cartex::core::detail {

// The name of `names` nearest to `word` by edit distance (insertions, deletions, substitutions and
// swaps of two neighbouring letters, ignoring case), when it is close: at most 2 edits and at most
// half of `word`'s length (so a one-letter word suggests nothing). Ties go to the first in `names`.
std::optional<std::string> nearest_name(const std::string& word, const std::vector<std::string>& names);

}  // namespace cartex::core::detail
