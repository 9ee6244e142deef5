#include "restart_command.hpp"

namespace cartex::app {

namespace {

// `word` quoted for a POSIX shell when it holds anything but safe characters.
std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                           "0123456789_./=,:+-@%") == std::string::npos;
  if (safe) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

std::string restart_command(const Setup& s, const std::string& checkpoint) {
  std::string cmd = s.app;
  for (const auto& f : s.input.files)
    if (s.input.texts.count(f) == 0) cmd += " " + shell_quote(f);
  for (const auto& u : s.input.unsets) cmd += " --unset " + shell_quote(u);
  for (const auto& o : s.input.sets) cmd += " --set " + shell_quote(o);
  return cmd + " --restart " + shell_quote(checkpoint);
}

}  // namespace cartex::app
