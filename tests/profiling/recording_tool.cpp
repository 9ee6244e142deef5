// A Kokkos Tools profiling library of cartex's own, for tests: records which profiling regions were
// entered (with the regions around them) and which kernels ran in which regions, and writes the counts
// to PREFIX.RANK.txt at finalize (PREFIX from CARTEX_TOOL_OUT, RANK from the MPI launcher's
// environment, else the process id). Loaded by Kokkos from KOKKOS_PROFILE_LIBRARY or
// --kokkos-tools-library; the hooks are the C interface of Kokkos 3.4 (impl/Kokkos_Profiling_C_Interface.h),
// unchanged in 4.x. Output lines, tab-separated:
//   region  COUNT  PATH                   PATH = the open regions, outermost first, joined by " > "
//   kernel  KIND  COUNT  NAME  PATH        KIND = for, reduce or scan; PATH = the regions around it
//   error   TEXT                           unbalanced regions, kernels ending out of order
//   end                                    written last: the file is complete
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

struct Kokkos_Profiling_KokkosPDeviceInfo;

namespace {

std::vector<std::string> regions;                               // open regions, outermost first
std::map<std::string, long> region_counts;                      // path -> entries
std::map<std::tuple<std::string, std::string, std::string>, long> kernel_counts;  // (kind, name, path)
std::vector<std::pair<uint64_t, std::string>> open_kernels;     // (id, kind) of kernels begun, not ended
std::vector<std::string> errors;
uint64_t next_id = 1;

std::string path() {
  std::string p;
  for (const auto& r : regions) p += (p.empty() ? "" : " > ") + r;
  return p;
}

void begin(const char* kind, const char* name, uint64_t* id) {
  *id = next_id++;
  ++kernel_counts[{kind, name, path()}];
  open_kernels.emplace_back(*id, kind);
}

void end(const char* kind, uint64_t id) {
  if (open_kernels.empty() || open_kernels.back().first != id || open_kernels.back().second != kind)
    errors.push_back(std::string("end of a parallel_") + kind + " that is not the innermost running kernel");
  else
    open_kernels.pop_back();
}

std::string output_path() {
  const char* prefix = std::getenv("CARTEX_TOOL_OUT");
  std::string rank;
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* v = std::getenv(var)) {
      rank = v;
      break;
    }
  if (rank.empty()) rank = "pid" + std::to_string(getpid());
  return std::string(prefix ? prefix : "cartex-tool") + "." + rank + ".txt";
}

}  // namespace

extern "C" {

void kokkosp_init_library(const int, const uint64_t, const uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*) {}

void kokkosp_push_profile_region(const char* name) {
  regions.emplace_back(name);
  ++region_counts[path()];
}

void kokkosp_pop_profile_region() {
  if (regions.empty())
    errors.push_back("pop without an open region");
  else
    regions.pop_back();
}

void kokkosp_begin_parallel_for(const char* name, const uint32_t, uint64_t* id) { begin("for", name, id); }
void kokkosp_end_parallel_for(const uint64_t id) { end("for", id); }
void kokkosp_begin_parallel_reduce(const char* name, const uint32_t, uint64_t* id) { begin("reduce", name, id); }
void kokkosp_end_parallel_reduce(const uint64_t id) { end("reduce", id); }
void kokkosp_begin_parallel_scan(const char* name, const uint32_t, uint64_t* id) { begin("scan", name, id); }
void kokkosp_end_parallel_scan(const uint64_t id) { end("scan", id); }

void kokkosp_finalize_library() {
  if (!regions.empty()) errors.push_back(std::to_string(regions.size()) + " region(s) still open at finalize: " + path());
  if (!open_kernels.empty()) errors.push_back(std::to_string(open_kernels.size()) + " kernel(s) never ended");
  FILE* f = std::fopen(output_path().c_str(), "w");
  if (!f) {
    std::perror("cartex recording tool: cannot write its output file");
    return;
  }
  for (const auto& [p, n] : region_counts) std::fprintf(f, "region\t%ld\t%s\n", n, p.c_str());
  for (const auto& [k, n] : kernel_counts)
    std::fprintf(f, "kernel\t%s\t%ld\t%s\t%s\n", std::get<0>(k).c_str(), n, std::get<1>(k).c_str(), std::get<2>(k).c_str());
  for (const auto& e : errors) std::fprintf(f, "error\t%s\n", e.c_str());
  std::fprintf(f, "end\n");
  std::fclose(f);
}

}  // extern "C"
