// The cache sizes temporal blocking sizes its tiles from (host_caches.hpp), read from a fake sysfs tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "cartex/kernels/host_caches.hpp"

namespace fs = std::filesystem;
using namespace cartex::kernels;

namespace {

void write_index(const fs::path& root, int i, const std::string& level, const std::string& type, const std::string& size,
                 const std::string& shared) {
  const fs::path dir = root / ("index" + std::to_string(i));
  fs::create_directories(dir);
  std::ofstream(dir / "level") << level << "\n";
  std::ofstream(dir / "type") << type << "\n";
  std::ofstream(dir / "size") << size << "\n";
  std::ofstream(dir / "shared_cpu_list") << shared << "\n";
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("cartex_host_caches_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST(HostCaches, ParsesSizesAndCpuLists) {
  EXPECT_EQ(parse_cache_size("512K"), 512L << 10);
  EXPECT_EQ(parse_cache_size("8M"), 8L << 20);
  EXPECT_EQ(parse_cache_size("65536"), 65536);
  EXPECT_EQ(parse_cache_size(""), -1);
  EXPECT_EQ(parse_cache_size("K"), -1);
  EXPECT_EQ(parse_cache_size("12 K"), -1);
  EXPECT_EQ(count_cpu_list("0"), 1);
  EXPECT_EQ(count_cpu_list("0-1"), 2);
  EXPECT_EQ(count_cpu_list("0,2,4-7"), 6);
  EXPECT_EQ(count_cpu_list("3-1"), 0);
  EXPECT_EQ(count_cpu_list("a"), 0);
  EXPECT_EQ(count_cpu_list(""), 0);
}

TEST(HostCaches, L2PerCoreAndTheCoresShareOfL3) {
  // A two-core guest of a Zen 1 host: the layout lscpu printed on this project's machine.
  const fs::path root = fresh_dir("zen1");
  write_index(root, 0, "1", "Data", "32K", "0");
  write_index(root, 1, "1", "Instruction", "64K", "0");
  write_index(root, 2, "2", "Unified", "512K", "0");
  write_index(root, 3, "3", "Unified", "8192K", "0-1");
  const HostCaches c = host_caches(root.string());
  EXPECT_EQ(c.l2, 512L << 10);
  EXPECT_EQ(c.l3_share, 4L << 20);
  EXPECT_EQ(c.source, "sysfs");
  EXPECT_EQ(describe(c), "512 KiB L2 + 4096 KiB L3 share (sysfs)");
  EXPECT_EQ(describe(HostCaches{}), "unknown");
  fs::remove_all(root);
}

TEST(HostCaches, WithoutL3OnlyL2AndWithoutSysfsNoL3) {
  const fs::path root = fresh_dir("l2only");
  write_index(root, 0, "1", "Data", "48K", "0");
  write_index(root, 1, "2", "Unified", "2048K", "0");
  const HostCaches c = host_caches(root.string());
  EXPECT_EQ(c.l2, 2L << 20);
  EXPECT_EQ(c.l3_share, 0);
  fs::remove_all(root);
  const HostCaches none = host_caches((root / "absent").string());
  EXPECT_EQ(none.l3_share, 0);  // sysconf's L3 can be the host's whole socket in a guest: not used
  EXPECT_NE(none.source, "sysfs");
}
