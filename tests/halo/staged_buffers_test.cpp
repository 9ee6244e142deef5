// The staged path of the packed backends on the host (staging/staged_buffers.hpp): with
// comm.gpu_aware_mpi off, MPI reads and writes host buffers that are separate allocations from the
// pack buffers, filled and emptied by deep copies, as on a device without GPU-aware MPI; with auto on
// the host, MPI reads the pack buffers themselves and nothing is copied. Checked on one StagedBuffers,
// and for every packed backend of the registry: its halo is right (exchange_check.hpp) and the
// process-wide staging totals moved as the staged path moves them.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "cartex/halo/backends.hpp"
#include "exchange_check.hpp"
#include "mpi_world.hpp"
#include "staging/staged_buffers.hpp"

namespace cartex {
namespace {

using core::GpuAwareMpiInput;

// A 4^3 block with a halo of one; cell i holds i + 0.5.
core::Field numbered_field() {
  core::FieldLayout layout;
  layout.box.n = {4, 4, 4};
  layout.halo.lo = {1, 1, 1};
  layout.halo.hi = {1, 1, 1};
  core::Field f("f", layout);
  auto h = Kokkos::create_mirror_view(f.view);
  for (size_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<double>(i) + 0.5;
  Kokkos::deep_copy(f.view, h);
  return f;
}

// `after` minus `before`, field by field.
halo::StagingTotals moved(const halo::StagingTotals& before, const halo::StagingTotals& after) {
  return {after.direct_buffers - before.direct_buffers, after.host_send_buffers - before.host_send_buffers,
          after.host_recv_buffers - before.host_recv_buffers, after.copies_to_host - before.copies_to_host,
          after.copies_from_host - before.copies_from_host, after.bytes_copied - before.bytes_copied};
}

TEST(StagedBuffers, StagedMpiBuffersAreSeparateHostCopies) {
  const std::vector<long> send_cells{1, 2, 3, 40};
  const halo::CellList sends(send_cells), recvs({0, 100});
  core::Field f = numbered_field();
  const halo::StagingTotals before = halo::staging_totals();
  halo::StagedBuffers b({&sends}, {&recvs}, halo::Staging::kHost);
  EXPECT_NE(b.send_data(), b.send_buffer());
  EXPECT_NE(b.recv_data(), b.recv_buffer());
  b.pack(f);
  // MPI's send buffer holds the packed cells (host memory: readable here).
  for (size_t i = 0; i < send_cells.size(); ++i) EXPECT_EQ(b.send_data()[i], static_cast<double>(send_cells[i]) + 0.5) << i;
  b.recv_data()[0] = -1.0;  // as MPI would write the received cells
  b.recv_data()[1] = -2.0;
  b.unpack(f);
  auto h = Kokkos::create_mirror_view(f.view);
  Kokkos::deep_copy(h, f.view);
  EXPECT_EQ(h.data()[0], -1.0);
  EXPECT_EQ(h.data()[100], -2.0);
  const halo::StagingTotals m = moved(before, halo::staging_totals());
  EXPECT_EQ(m.host_send_buffers, 1);
  EXPECT_EQ(m.host_recv_buffers, 1);
  EXPECT_EQ(m.direct_buffers, 0);
  EXPECT_EQ(m.copies_to_host, 1);
  EXPECT_EQ(m.copies_from_host, 1);
  EXPECT_EQ(m.bytes_copied, static_cast<long>((sends.size() + recvs.size()) * sizeof(double)));
}

TEST(StagedBuffers, DirectMpiBuffersAreThePackBuffers) {
  const std::vector<long> send_cells{1, 2, 3, 40};
  const halo::CellList sends(send_cells), recvs({0, 100});
  core::Field f = numbered_field();
  const halo::StagingTotals before = halo::staging_totals();
  halo::StagedBuffers b({&sends}, {&recvs}, halo::Staging::kDirect);
  EXPECT_EQ(b.send_data(), b.send_buffer());
  EXPECT_EQ(b.recv_data(), b.recv_buffer());
  b.pack(f);
  if (halo::host_accessible_memory()) {  // else MPI's pointers are device memory, not readable here
    for (size_t i = 0; i < send_cells.size(); ++i) EXPECT_EQ(b.send_data()[i], static_cast<double>(send_cells[i]) + 0.5) << i;
    b.recv_data()[1] = -2.0;
    b.unpack(f);
    auto h = Kokkos::create_mirror_view(f.view);
    Kokkos::deep_copy(h, f.view);
    EXPECT_EQ(h.data()[100], -2.0);
  }
  const halo::StagingTotals m = moved(before, halo::staging_totals());
  EXPECT_EQ(m.direct_buffers, 2);
  EXPECT_EQ(m.host_send_buffers + m.host_recv_buffers + m.copies_to_host + m.copies_from_host + m.bytes_copied, 0);
}

// A few exchange cases: 2D and 3D, periodic and walls, deep halos.
std::vector<test::Case> cases() {
  return {{3, {9, 8, 7}, {true, true, true}, "box", 1, 1},
          {3, {9, 8, 7}, {false, true, false}, "star", 1, 2},
          {2, {13, 11, 1}, {true, false, true}, "upwind", 2, 3},
          {2, {12, 10, 1}, {false, true, true}, "box", 2, 1}};
}

// Exchanges every case twice with every packed backend built for `setting`: the halo must be right and
// the staging totals move as its decision says (auto's copies not counted: it times its candidates).
void exchange_every_packed_backend(GpuAwareMpiInput setting, const char* what) {
  const int size = test::world_size();
  const bool staged = halo::mpi_memory(setting).stage;
  long staged_backends = 0;
  for (const halo::Backend& b : halo::backends()) {
    if (b.unavailable || b.zero_copy) continue;
    const halo::StagingTotals before = halo::staging_totals();
    for (const test::Case& c : cases())
      EXPECT_EQ(test::wrong_cells_after_exchange(c, b.name, 0, setting), 0) << what << " " << b.name << " " << c.describe();
    const halo::StagingTotals m = moved(before, halo::staging_totals());
    const std::string where = std::string(what) + " " + b.name;
    if (staged) {
      EXPECT_EQ(m.direct_buffers, 0) << where;  // MPI never sees a pack buffer
      staged_backends += m.host_send_buffers > 0;
      if (size > 1) EXPECT_GT(m.host_send_buffers, 0) << where;  // every backend sends something to another rank
      if (std::string(b.name) == "auto") continue;
      // Two exchanges per plan: each staged buffer copied twice, nothing else.
      EXPECT_EQ(m.copies_to_host, 2 * m.host_send_buffers) << where;
      EXPECT_EQ(m.copies_from_host, 2 * m.host_recv_buffers) << where;
      if (m.host_send_buffers > 0) EXPECT_GT(m.bytes_copied, 0) << where;
    } else {
      EXPECT_EQ(m.host_send_buffers + m.host_recv_buffers + m.copies_to_host + m.copies_from_host, 0) << where;
      if (size > 1) EXPECT_GT(m.direct_buffers, 0) << where;
    }
  }
  if (staged) EXPECT_GT(staged_backends, 0) << "no packed backend staged anything";
}

TEST(StagedBuffers, EveryPackedBackendStagedThroughHostCopiesFillsTheHalo) {
  ASSERT_TRUE(halo::mpi_memory(GpuAwareMpiInput::kOff).stage);
  exchange_every_packed_backend(GpuAwareMpiInput::kOff, "comm.gpu_aware_mpi off");
}

TEST(StagedBuffers, EveryPackedBackendDirectOnTheHostFillsTheHaloWithoutCopies) {
  // On the host auto hands MPI the pack buffers (on a device it follows what MPI says).
  if (halo::host_accessible_memory()) EXPECT_FALSE(halo::mpi_memory(GpuAwareMpiInput::kAuto).stage);
  exchange_every_packed_backend(GpuAwareMpiInput::kAuto, "comm.gpu_aware_mpi auto");
}

}  // namespace
}  // namespace cartex
