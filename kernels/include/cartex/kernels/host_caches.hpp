#pragma once
// The data cache a host core can count on, for sizing temporal-blocking tiles (cycle_regions.cpp).
#include <string>

namespace cartex::kernels {

struct HostCaches {
  long l2 = 0;        // bytes of L2 per core (0: unknown)
  long l3_share = 0;  // bytes of L3 divided by the CPUs that share it (0: unknown or none)
  std::string source;  // where the sizes came from ("sysfs", "sysconf" or empty)
};

// From Linux's /sys/devices/system/cpu/cpu0/cache (what lscpu shows: in a virtual machine the
// guest's topology, where the CPUID values sysconf reports may be the host's whole socket); else L2
// from sysconf; else nothing. `sysfs_root` is for tests.
HostCaches host_caches(const std::string& sysfs_root = "/sys/devices/system/cpu/cpu0/cache");

// "512 KiB L2 + 4096 KiB L3 share (sysfs)", "1024 KiB L2 (sysconf)" or "unknown": for the summary.
std::string describe(const HostCaches& caches);

// "512K", "8192K", "1M", "65536" (bytes) -> bytes; -1 when it is none of these.
long parse_cache_size(const std::string& text);

// "0-1", "0,2,4-7" -> the number of CPUs listed; 0 when malformed.
int count_cpu_list(const std::string& text);

}  // namespace cartex::kernels
