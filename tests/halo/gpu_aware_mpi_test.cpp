// comm.gpu_aware_mpi's decision (cartex/halo/gpu_aware_mpi.hpp): every row of the table, fed with
// each setting, field memory and MPI answer (pure logic: a host build can check the device rows);
// zero-copy backends refused exactly where the decision says (halo::refusal, make_halo_plan); and the
// run-time MPI query of this build's MPI answers through the function its headers declare.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "cartex/halo/backends.hpp"
#include "cartex/halo/gpu_aware_mpi.hpp"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

namespace cartex {
namespace {

using core::GpuAwareMpiInput;
using halo::MpiGpuSupport;

// One row: the inputs and what the decision must be.
struct Row {
  GpuAwareMpiInput setting;
  bool host_accessible;
  MpiGpuSupport mpi;
  bool stage;
  bool zero_copy;
};

const char* name(MpiGpuSupport s) { return s == MpiGpuSupport::kYes ? "yes" : s == MpiGpuSupport::kNo ? "no" : "unknown"; }

std::string describe(const Row& r) {
  return std::string(core::gpu_aware_mpi_text(r.setting)) + (r.host_accessible ? " host" : " device") + " mpi " + name(r.mpi);
}

// The table of gpu_aware_mpi.hpp, written out for every MPI answer (18 rows).
std::vector<Row> table() {
  const auto kAuto = GpuAwareMpiInput::kAuto, kOn = GpuAwareMpiInput::kOn, kOff = GpuAwareMpiInput::kOff;
  const auto kYes = MpiGpuSupport::kYes, kNo = MpiGpuSupport::kNo, kUnknown = MpiGpuSupport::kUnknown;
  return {
      // setting, host-accessible, MPI answer -> stage, zero-copy
      {kAuto, true, kYes, false, true},    {kAuto, true, kNo, false, true},     {kAuto, true, kUnknown, false, true},
      {kAuto, false, kYes, false, true},   {kAuto, false, kNo, true, false},    {kAuto, false, kUnknown, true, false},
      {kOn, true, kYes, false, true},      {kOn, true, kNo, false, true},       {kOn, true, kUnknown, false, true},
      {kOn, false, kYes, false, true},     {kOn, false, kNo, false, true},      {kOn, false, kUnknown, false, true},
      {kOff, true, kYes, true, true},      {kOff, true, kNo, true, true},       {kOff, true, kUnknown, true, true},
      {kOff, false, kYes, true, false},    {kOff, false, kNo, true, false},     {kOff, false, kUnknown, true, false},
  };
}

TEST(GpuAwareMpi, EveryRowOfTheDecisionTable) {
  for (const Row& r : table()) {
    const halo::MpiMemory m = halo::decide_mpi_memory(r.setting, r.host_accessible, {r.mpi, "MPIX_Fake_query() = 7"});
    EXPECT_EQ(m.stage, r.stage) << describe(r);
    EXPECT_EQ(m.zero_copy, r.zero_copy) << describe(r);
    EXPECT_EQ(m.refusal.empty(), r.zero_copy) << describe(r) << ": " << m.refusal;
    // One line for the report that names the setting; where MPI's answer decided, how it was asked.
    EXPECT_EQ(m.reason.rfind(std::string("comm.gpu_aware_mpi ") + core::gpu_aware_mpi_text(r.setting) + ": ", 0), 0u)
        << m.reason;
    EXPECT_EQ(m.reason.find('\n'), std::string::npos) << m.reason;
    const bool mpi_decides = !r.host_accessible && r.setting == GpuAwareMpiInput::kAuto;
    if (mpi_decides) EXPECT_NE(m.reason.find("MPIX_Fake_query() = 7"), std::string::npos) << m.reason;
    if (mpi_decides && !r.zero_copy) EXPECT_NE(m.refusal.find("comm.gpu_aware_mpi: on"), std::string::npos) << m.refusal;
  }
}

TEST(GpuAwareMpi, ZeroCopyBackendsAreRefusedOnADeviceWithoutGpuAwareMpi) {
  const halo::MpiMemory refusing = halo::decide_mpi_memory(GpuAwareMpiInput::kAuto, false, {MpiGpuSupport::kNo, "q() = 0"});
  const halo::MpiMemory trusting = halo::decide_mpi_memory(GpuAwareMpiInput::kOn, false, {MpiGpuSupport::kNo, "q() = 0"});
  const halo::MpiMemory host_off = halo::decide_mpi_memory(GpuAwareMpiInput::kOff, true, {MpiGpuSupport::kUnknown, "-"});
  int refused = 0;
  for (const halo::Backend& b : halo::backends()) {
    if (b.unavailable) continue;
    const auto why = halo::refusal(b, refusing);
    EXPECT_EQ(why.has_value(), b.zero_copy) << b.name;
    if (why) {
      ++refused;
      EXPECT_EQ(why->rfind("zero-copy, refused: the field is device memory and MPI reports no GPU support (q() = 0)", 0), 0u)
          << *why;
    }
    EXPECT_FALSE(halo::refusal(b, trusting)) << b.name;
    EXPECT_FALSE(halo::refusal(b, host_off)) << b.name;  // the field is host memory
  }
  EXPECT_GE(refused, 3);  // mpi_neighbor_alltoallw, cart_direct, cart_combining (and _init where available)
}

TEST(GpuAwareMpi, ThisBuildDecidesAsItsMemorySays) {
  EXPECT_FALSE(halo::mpi_memory(GpuAwareMpiInput::kOn).stage);
  EXPECT_TRUE(halo::mpi_memory(GpuAwareMpiInput::kOff).stage);
  if (halo::host_accessible_memory()) {  // Serial, OpenMP: nothing asked, zero-copy always runs
    EXPECT_EQ(halo::compiled_gpu(), halo::GpuKind::kNone);
    EXPECT_FALSE(halo::mpi_memory(GpuAwareMpiInput::kAuto).stage);
    for (const auto g : {GpuAwareMpiInput::kAuto, GpuAwareMpiInput::kOn, GpuAwareMpiInput::kOff})
      EXPECT_TRUE(halo::mpi_memory(g).zero_copy) << core::gpu_aware_mpi_text(g);
  } else {  // CUDA, HIP
    EXPECT_NE(halo::compiled_gpu(), halo::GpuKind::kNone);
    EXPECT_FALSE(halo::mpi_memory(GpuAwareMpiInput::kOff).zero_copy);
  }
}

TEST(GpuAwareMpi, TheQueryAsksThroughTheFunctionThisMpiDeclares) {
  const halo::MpiGpuAnswer none = halo::query_mpi_gpu_support(halo::GpuKind::kNone);
  EXPECT_EQ(none.support, MpiGpuSupport::kUnknown);
  EXPECT_EQ(none.how, "not asked: this Kokkos has no GPU backend");
  const halo::MpiGpuAnswer cuda = halo::query_mpi_gpu_support(halo::GpuKind::kCuda);
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  const std::string call = "MPIX_Query_cuda_support() = ";
#elif defined(MPIX_GPU_SUPPORT_CUDA)
  const std::string call = "MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA) = ";
#else
  const std::string call;
#endif
  if (call.empty()) {
    EXPECT_EQ(cuda.support, MpiGpuSupport::kUnknown) << cuda.how;
  } else {
    EXPECT_NE(cuda.support, MpiGpuSupport::kUnknown) << cuda.how;
    ASSERT_EQ(cuda.how.rfind(call, 0), 0u) << cuda.how;
    EXPECT_EQ(cuda.how.substr(call.size()) == "1", cuda.support == MpiGpuSupport::kYes) << cuda.how;
  }
  const halo::MpiGpuAnswer hip = halo::query_mpi_gpu_support(halo::GpuKind::kHip);
  EXPECT_FALSE(hip.how.empty());
  // Every rank asks the same library: the same answer.
  int mine = static_cast<int>(cuda.support), low = 0, high = 0;
  MPI_Allreduce(&mine, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &high, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(low, high);
}

}  // namespace
}  // namespace cartex
