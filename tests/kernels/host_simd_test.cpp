// The host vector's lane-masked load (host_simd.hpp): the lanes asked for, zeros elsewhere, and no
// access to memory outside them (the lanes lie between two inaccessible pages, so a stray read faults).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>

#include "host_simd.hpp"

namespace cartex::kernels::simd {
namespace {

constexpr int W = Vec::kWidth;

std::array<double, W> lanes_of(Vec a) {
  std::array<double, W> out{};
  store(out.data(), a);
  return out;
}

// One readable page between two inaccessible ones.
class GuardedPage : public ::testing::Test {
 protected:
  void SetUp() override {
    page_ = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    void* m = ::mmap(nullptr, 3 * page_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(m, MAP_FAILED);
    base_ = static_cast<char*>(m);
    ASSERT_EQ(::mprotect(base_ + page_, page_, PROT_READ | PROT_WRITE), 0);
    first_ = reinterpret_cast<double*>(base_ + page_);
    last_ = reinterpret_cast<double*>(base_ + 2 * page_) - 1;
    for (double* p = first_; p <= last_; ++p) *p = 1.0 + static_cast<double>(p - first_);
  }
  void TearDown() override {
    if (base_) ::munmap(base_, 3 * page_);
  }
  size_t page_ = 0;
  char* base_ = nullptr;
  double* first_ = nullptr;  // the page's first and last doubles
  double* last_ = nullptr;
};

TEST_F(GuardedPage, LoadLanesReadsOnlyTheLanesAskedFor) {
  for (int from = 0; from <= W; ++from)
    for (int to = from; to <= W; ++to) {
      // Lanes [from, to) at the start of the page (lanes below `from` would fault), then at its end.
      for (const double* p : {first_ - from, last_ + 1 - to}) {
        const auto got = lanes_of(load_lanes(p, from, to));
        for (int l = 0; l < W; ++l)
          EXPECT_EQ(got[l], l >= from && l < to ? p[l] : 0.0) << "from " << from << " to " << to << " lane " << l;
      }
    }
}

}  // namespace
}  // namespace cartex::kernels::simd
