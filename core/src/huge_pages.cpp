#include "cartex/core/huge_pages.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cartex::core {

std::size_t advise_huge_pages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + huge - 1) / huge * huge;
  const std::uintptr_t last = (begin + bytes) / huge * huge;
  if (data == nullptr || last <= first) return 0;
  // A refusal (EINVAL without THP in the kernel) leaves small pages: nothing else to do.
  if (madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE) != 0) return 0;
  return last - first;
#else
  (void)data;
  (void)bytes;
  return 0;
#endif
}

}  // namespace cartex::core
