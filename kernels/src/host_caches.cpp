#include "cartex/kernels/host_caches.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace cartex::kernels {

namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (const char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

long parse_cache_size(const std::string& text) {
  std::string digits = text;
  long unit = 1;
  if (!digits.empty() && (digits.back() == 'K' || digits.back() == 'M' || digits.back() == 'G')) {
    unit = digits.back() == 'K' ? 1L << 10 : digits.back() == 'M' ? 1L << 20 : 1L << 30;
    digits.pop_back();
  }
  if (!all_digits(digits) || digits.size() > 12) return -1;
  return std::stol(digits) * unit;
}

int count_cpu_list(const std::string& text) {
  int count = 0;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const auto dash = item.find('-');
    const std::string lo = item.substr(0, dash), hi = dash == std::string::npos ? lo : item.substr(dash + 1);
    if (!all_digits(lo) || !all_digits(hi) || lo.size() > 6 || hi.size() > 6 || std::stoi(hi) < std::stoi(lo)) return 0;
    count += std::stoi(hi) - std::stoi(lo) + 1;
  }
  return count;
}

std::string describe(const HostCaches& c) {
  if (c.l2 <= 0) return "unknown";
  std::string text = std::to_string(c.l2 >> 10) + " KiB L2";
  if (c.l3_share > 0) text += " + " + std::to_string(c.l3_share >> 10) + " KiB L3 share";
  return text + " (" + c.source + ")";
}

HostCaches host_caches(const std::string& sysfs_root) {
  HostCaches c;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = sysfs_root + "/index" + std::to_string(i) + "/";
    const std::string level = read_line(dir + "level"), type = read_line(dir + "type");
    if (level.empty()) break;
    if (type != "Data" && type != "Unified") continue;
    const long size = parse_cache_size(read_line(dir + "size"));
    const int sharing = count_cpu_list(read_line(dir + "shared_cpu_list"));
    if (size <= 0 || sharing <= 0) continue;
    if (level == "2") c.l2 = size;
    if (level == "3") c.l3_share = size / sharing;
  }
  if (c.l2 > 0) return c.source = "sysfs", c;
  c.l3_share = 0;
#ifdef _SC_LEVEL2_CACHE_SIZE
  c.l2 = std::max(0L, sysconf(_SC_LEVEL2_CACHE_SIZE));
#endif
  c.source = c.l2 > 0 ? "sysconf" : "";
  return c;
}

}  // namespace cartex::kernels
