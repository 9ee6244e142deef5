// Ring and Ring* allreduce against MPI_Allreduce on simulated sequential and round-robin layouts
// and the detected one: integer sum/max and double max bitwise, double sum bitwise equal to the
// documented fold order and within rounding of MPI_Allreduce; counts below, at and above P;
// MPI_IN_PLACE; the env-driven allreduce() front end.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "cartex/ranks/allreduce.hpp"
#include "mpi_world.hpp"

namespace {

using namespace cartex::ranks;

using cartex::test::world_rank;
using cartex::test::world_size;

std::vector<Renaming> renamings() {
  const int p = world_size();
  std::vector<Renaming> r = {Renaming::identity(p)};
  for (int q : {2, 3})
    for (Mapping m : {Mapping::sequential, Mapping::round_robin}) r.push_back(Renaming::sequential_for(simulated_layout(p, q, m)));
  r.push_back(Renaming::sequential_for(detect_layout(MPI_COMM_WORLD)));
  return r;
}

const std::vector<int> kCounts = {0, 1, 3, 7, 8, 1000};

TEST(RingAllreduce, IntegersBitwiseEqualMpi) {
  const int me = world_rank();
  for (const Renaming& ren : renamings())
    for (int count : kCounts)
      for (MPI_Op op : {MPI_SUM, MPI_MAX}) {
        std::vector<std::int64_t> in(static_cast<std::size_t>(count) + 1), expect(in.size()), got(in.size(), -1);
        for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = (me * 7919 + i * 104729) % 100003 - 50000;
        MPI_Allreduce(in.data(), expect.data(), count, MPI_INT64_T, op, MPI_COMM_WORLD);
        ring_allreduce(in.data(), got.data(), count, MPI_INT64_T, op, MPI_COMM_WORLD, ren);
        got.back() = expect.back();
        EXPECT_EQ(got, expect) << "count " << count;
        std::vector<std::int64_t> inplace = in;
        ring_allreduce(MPI_IN_PLACE, inplace.data(), count, MPI_INT64_T, op, MPI_COMM_WORLD, ren);
        inplace.back() = expect.back();
        EXPECT_EQ(inplace, expect) << "in place, count " << count;
      }
}

// Segment s of the result folds the inputs of virtual ranks s, s+1, ..., s-1 (mod P) left to right.
std::vector<double> documented_sum(const std::vector<std::vector<double>>& inputs, const Renaming& ren, int count) {
  const int p = static_cast<int>(inputs.size());
  std::vector<double> out(static_cast<std::size_t>(count));
  for (int s = 0, start = 0; s < p; ++s) {
    const int size = count / p + (s < count % p ? 1 : 0);
    for (int i = start; i < start + size; ++i) {
      double acc = inputs[static_cast<std::size_t>(ren.real_of(s))][static_cast<std::size_t>(i)];
      for (int k = 1; k < p; ++k) acc = acc + inputs[static_cast<std::size_t>(ren.real_of((s + k) % p))][static_cast<std::size_t>(i)];
      out[static_cast<std::size_t>(i)] = acc;
    }
    start += size;
  }
  return out;
}

TEST(RingAllreduce, DoublesInTheDocumentedOrder) {
  const int me = world_rank(), p = world_size();
  for (const Renaming& ren : renamings())
    for (int count : kCounts) {
      std::vector<double> in(static_cast<std::size_t>(count) + 1);
      for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = std::sin(1.0 + me * 31.0 + i) * std::pow(10.0, (me + i) % 7);
      std::vector<double> all(static_cast<std::size_t>(p) * in.size());
      MPI_Allgather(in.data(), static_cast<int>(in.size()), MPI_DOUBLE, all.data(), static_cast<int>(in.size()), MPI_DOUBLE,
                    MPI_COMM_WORLD);
      std::vector<std::vector<double>> inputs;
      for (int r = 0; r < p; ++r) inputs.emplace_back(all.begin() + r * in.size(), all.begin() + (r + 1) * in.size());
      std::vector<double> got(in.size(), 0.0), mpi(in.size(), 0.0), max_got(in.size(), 0.0), max_mpi(in.size(), 0.0);
      ring_allreduce(in.data(), got.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, ren);
      MPI_Allreduce(in.data(), mpi.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      const std::vector<double> expect = documented_sum(inputs, ren, count);
      for (int i = 0; i < count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        EXPECT_EQ(got[k], expect[k]) << "element " << i;
        EXPECT_NEAR(got[k], mpi[k], 1e-12 * std::pow(10.0, 7));
      }
      ring_allreduce(in.data(), max_got.data(), count, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, ren);
      MPI_Allreduce(in.data(), max_mpi.data(), count, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      EXPECT_EQ(max_got, max_mpi);
    }
}

TEST(Allreduce, FrontEndAgreesForEveryAlgorithm) {
  const int me = world_rank();
  std::vector<int> in(10);
  for (int i = 0; i < 10; ++i) in[static_cast<std::size_t>(i)] = me * 3 + i;
  std::vector<int> expect(10);
  MPI_Allreduce(in.data(), expect.data(), 10, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (const char* name : {"mpi", "ring", "ring_renamed"}) {
    std::vector<int> got(10, -1);
    allreduce(in.data(), got.data(), 10, MPI_INT, MPI_SUM, MPI_COMM_WORLD, parse_algorithm(name));
    EXPECT_EQ(got, expect) << name;
    EXPECT_EQ(to_string(parse_algorithm(name)), name);
  }
  EXPECT_THROW(parse_algorithm("tree"), std::invalid_argument);
}

TEST(Allreduce, RejectsNonCommutativeOps) {
  MPI_Op op = MPI_OP_NULL;
  MPI_Op_create([](void*, void*, int*, MPI_Datatype*) {}, 0, &op);
  int x = 1, y = 0;
  EXPECT_THROW(ring_allreduce(&x, &y, 1, MPI_INT, op, MPI_COMM_WORLD, Renaming::identity(world_size())),
               std::invalid_argument);
  MPI_Op_free(&op);
}

}  // namespace
