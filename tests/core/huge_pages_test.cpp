// Huge-page advice for field storage (cartex/core/huge_pages.hpp): which bytes are advised, and a
// Field made with it still starts as zeros, as a default-initialized view does.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "cartex/core/field.hpp"
#include "cartex/core/huge_pages.hpp"

namespace cartex::core {
namespace {

constexpr std::size_t kHuge = std::size_t{2} << 20;

// True when the running kernel has transparent huge pages at all (madvise then succeeds).
bool kernel_has_thp() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  return std::getline(f, modes) && !modes.empty();
}

TEST(HugePages, AdvisesTheWholeHugePagesInsideTheRange) {
  // 10 MiB aligned to 2 MiB; the range starts 4 KiB in and spans 6 MiB: whole pages [2 MiB, 6 MiB).
  std::unique_ptr<char, decltype(&std::free)> block(static_cast<char*>(std::aligned_alloc(kHuge, 5 * kHuge)), &std::free);
  ASSERT_NE(block, nullptr);
  const std::size_t expected = kernel_has_thp() ? 2 * kHuge : 0;
  EXPECT_EQ(advise_huge_pages(block.get() + 4096, 3 * kHuge), expected);
  // An aligned range of exactly two pages is advised whole.
  EXPECT_EQ(advise_huge_pages(block.get() + kHuge, 2 * kHuge), expected);
}

TEST(HugePages, NothingWithoutAWholeHugePage) {
  std::unique_ptr<char, decltype(&std::free)> block(static_cast<char*>(std::aligned_alloc(kHuge, 2 * kHuge)), &std::free);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(advise_huge_pages(block.get() + 64, kHuge), 0u);  // crosses one boundary, holds no whole page
  EXPECT_EQ(advise_huge_pages(block.get(), kHuge - 1), 0u);
  EXPECT_EQ(advise_huge_pages(nullptr, 4 * kHuge), 0u);
}

TEST(HugePages, FieldStartsAsZerosHaloIncluded) {
  FieldLayout layout;
  layout.box.n = {70, 64, 70};  // more than 2 MiB of doubles with the halo: advised on Linux hosts
  layout.halo.lo = {2, 1, 3};
  layout.halo.hi = {1, 2, 2};
  Field f("f", layout);
  ASSERT_EQ(f.view.extent(0), 75u);
  ASSERT_EQ(f.view.extent(2), 73u);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
  long nonzero = 0;
  for (std::size_t k = 0; k < host.extent(0); ++k)
    for (std::size_t j = 0; j < host.extent(1); ++j)
      for (std::size_t i = 0; i < host.extent(2); ++i) nonzero += host(k, j, i) != 0.0;
  EXPECT_EQ(nonzero, 0);
}

}  // namespace
}  // namespace cartex::core
