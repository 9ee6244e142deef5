// comm.backend and comm.allreduce are checked by the app against the layers that own the names (the
// halo registry, comm/ranks), with the same located line as every input error; a zero-copy backend
// is refused where comm.gpu_aware_mpi's decision refuses it (device memory without GPU-aware MPI: a
// decision made here from the table, as the Serial and OpenMP builds have no device memory space and
// the check must be able to fail), and a backend this build's MPI cannot run like an unknown one (a
// registry row marked unavailable, made here).
#include <gtest/gtest.h>

#include <string>

#include "cartex/core/config.hpp"
#include "cartex/core/error.hpp"
#include "cartex/halo/backends.hpp"
#include "cartex/physics/equation.hpp"
#include "cartex/ranks/allreduce.hpp"
#include "comm_choices.hpp"

namespace cartex {
namespace {

const std::string kBase = "grid:\n  n: [12, 10, 8]\nphysics:\n  alpha: 1.0\n  cfl: 0.5\n";

core::Config config(const std::string& text, const std::vector<std::string>& sets = {}) {
  core::InputSources in;
  in.files = {"a.yaml"};
  in.texts["a.yaml"] = text;
  in.sets = sets;
  return core::load_config(in, physics::loader_input(physics::find_equation("heat")));
}

// The decisions of comm.gpu_aware_mpi auto on host memory, and on device memory with an MPI that
// reports no GPU support.
const halo::MpiMemory kHost = halo::decide_mpi_memory(core::GpuAwareMpiInput::kAuto, true, {halo::MpiGpuSupport::kUnknown, "-"});
const halo::MpiMemory kDeviceNotGpuAware =
    halo::decide_mpi_memory(core::GpuAwareMpiInput::kAuto, false, {halo::MpiGpuSupport::kNo, "MPIX_Query_cuda_support() = 0"});

// The InputError text of check_comm_choices, or "(no error)".
std::string error_of(const core::Config& cfg, const halo::MpiMemory& memory) {
  try {
    app::check_comm_choices(cfg, memory);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CommChoices, UnknownBackendNamesTheRegistryAndEscapesControlBytes) {
  EXPECT_EQ(error_of(config(kBase, {"comm.backend=\"a\\nb\""}), kHost),
            "--set comm.backend=\"a\\nb\": comm.backend: unknown backend \"a\\nb\" (expected one of: " + halo::backend_names() + ")");
  EXPECT_EQ(error_of(config(kBase + "comm:\n  backend: smoke_signals\n"), kHost),
            "a.yaml:7:12: comm.backend: unknown backend \"smoke_signals\" (expected one of: " + halo::backend_names() + ")");
}

// The InputError text of check_backend_choice for `row`, or "(no error)".
std::string error_of(const core::Config& cfg, const halo::Backend& row) {
  try {
    app::check_backend_choice(cfg, &row, kHost);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CommChoices, EveryAvailableBackendIsAccepted) {
  for (const halo::Backend& b : halo::backends())
    if (!b.unavailable)
      EXPECT_EQ(error_of(config(kBase + "comm:\n  backend: " + b.name + "\n"), kHost), "(no error)") << b.name;
}

TEST(CommChoices, UnavailableBackendIsALocatedErrorNamingTheReasonAndTheAvailableOnes) {
  const halo::Backend* real = halo::find_backend("mpi_neighbor_alltoallw_init");
  ASSERT_NE(real, nullptr);
  halo::Backend row = *real;
  row.unavailable = "this MPI lacks it";
  std::string available;  // the registry's (the fake row is not in it)
  for (const halo::Backend& b : halo::backends())
    if (!b.unavailable) available += (available.empty() ? "" : ", ") + std::string(b.name);
  EXPECT_EQ(error_of(config(kBase + "comm:\n  backend: mpi_neighbor_alltoallw_init\n"), row),
            "a.yaml:7:12: comm.backend: backend mpi_neighbor_alltoallw_init is unavailable: this MPI lacks it (expected "
            "one of: " + available + ")");
  EXPECT_EQ(error_of(config(kBase, {"comm.backend=mpi_neighbor_alltoallw_init"}), row).rfind(
                "--set comm.backend=mpi_neighbor_alltoallw_init: comm.backend: backend mpi_neighbor_alltoallw_init is "
                "unavailable: this MPI lacks it (",
                0),
            0u);
  row.unavailable = nullptr;
  EXPECT_EQ(error_of(config(kBase + "comm:\n  backend: mpi_neighbor_alltoallw_init\n"), row), "(no error)");
}

TEST(CommChoices, ZeroCopyOnDeviceMemoryWithoutGpuAwareMpiIsAnInputError) {
  int zero_copy = 0;
  for (const halo::Backend& b : halo::backends()) {
    const std::string e = error_of(config(kBase + "comm:\n  backend: " + b.name + "\n"), kDeviceNotGpuAware);
    if (b.unavailable) {
      EXPECT_NE(e.find(" is unavailable: "), std::string::npos) << e;  // that comes first
      zero_copy += b.zero_copy;
      continue;
    }
    if (!b.zero_copy) {
      EXPECT_EQ(e, "(no error)") << b.name;
      continue;
    }
    ++zero_copy;
    EXPECT_EQ(e.rfind("a.yaml:7:12: comm.backend: backend " + std::string(b.name) + " hands the field's memory to MPI, but "
                      "the field is device memory and MPI reports no GPU support (MPIX_Query_cuda_support() = 0); set "
                      "comm.gpu_aware_mpi: on if this MPI is GPU-aware (expected one of: ",
                      0),
              0u)
        << e;
    EXPECT_NE(e.find("p2p"), std::string::npos) << e;  // names the backends that can run
  }
  EXPECT_EQ(zero_copy, 4);  // mpi_neighbor_alltoallw, cart_direct, cart_combining, mpi_neighbor_alltoallw_init
  EXPECT_EQ(error_of(config(kBase), kDeviceNotGpuAware), "(no error)");  // the default (p2p) packs
}

TEST(CommChoices, ZeroCopyOnDeviceMemoryFollowsComm_gpu_aware_mpi) {
  for (const std::string setting : {"auto", "on", "off"}) {
    const core::Config cfg = config(kBase + "comm:\n  backend: cart_direct\n  gpu_aware_mpi: " + setting + "\n");
    EXPECT_EQ(core::gpu_aware_mpi_text(cfg.gpu_aware_mpi), setting);
    const std::string e = error_of(cfg, halo::decide_mpi_memory(cfg.gpu_aware_mpi, false, {halo::MpiGpuSupport::kNo, "q() = 0"}));
    if (setting == "on")
      EXPECT_EQ(e, "(no error)");  // trusted
    else
      EXPECT_EQ(e.rfind("a.yaml:7:12: comm.backend: backend cart_direct hands the field's memory to MPI, but the field is "
                        "device memory and " + std::string(setting == "off" ? "comm.gpu_aware_mpi is off" : "MPI reports"),
                        0),
                0u)
          << e;
  }
}

TEST(CommChoices, UnknownAllreduceNamesTheRanksAlgorithms) {
  EXPECT_EQ(error_of(config(kBase + "comm:\n  allreduce: carrier_pigeon\n"), kHost),
            "a.yaml:7:14: comm.allreduce: unknown allreduce algorithm \"carrier_pigeon\" (expected one of: mpi, ring, "
            "ring_renamed)");
  for (const auto& name : ranks::algorithm_names())
    EXPECT_EQ(error_of(config(kBase + "comm:\n  allreduce: " + name + "\n"), kHost), "(no error)") << name;
}

}  // namespace
}  // namespace cartex
