// The decision table of gpu_aware_mpi.hpp, and the facts of this build it is fed with.
#include "cartex/halo/gpu_aware_mpi.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

namespace cartex::halo {

namespace {

// "MPI reports GPU support (how)" and its siblings.
std::string mpi_says(const MpiGpuAnswer& mpi) {
  switch (mpi.support) {
    case MpiGpuSupport::kYes:
      return fmt::format("MPI reports GPU support ({})", mpi.how);
    case MpiGpuSupport::kNo:
      return fmt::format("MPI reports no GPU support ({})", mpi.how);
    case MpiGpuSupport::kUnknown:
      break;
  }
  return fmt::format("MPI cannot say whether it supports GPU memory ({})", mpi.how);
}

}  // namespace

MpiMemory decide_mpi_memory(core::GpuAwareMpiInput setting, bool host_accessible, const MpiGpuAnswer& mpi) {
  using core::GpuAwareMpiInput;
  const std::string name = fmt::format("comm.gpu_aware_mpi {}", core::gpu_aware_mpi_text(setting));
  MpiMemory m;
  if (host_accessible) {  // rows 1, 4, 6: MPI never sees device memory
    m.stage = setting == GpuAwareMpiInput::kOff;
    m.reason = m.stage ? name + ": packed backends stage through separate host buffers (the copies of a device run); "
                                "zero-copy backends hand MPI the field, which is host memory"
                       : name + ": the field is host memory: MPI reads the pack buffers directly, nothing to stage";
    return m;
  }
  const bool takes_device = setting == GpuAwareMpiInput::kOn ||
                            (setting == GpuAwareMpiInput::kAuto && mpi.support == MpiGpuSupport::kYes);
  m.stage = !takes_device;
  m.zero_copy = takes_device;
  if (setting == GpuAwareMpiInput::kOn) {  // row 5
    m.reason = fmt::format("{}: the field is device memory, handed to MPI as trusted ({}): MPI reads device buffers "
                           "directly",
                           name, mpi_says(mpi));
  } else if (setting == GpuAwareMpiInput::kOff) {  // row 7
    m.reason = name + ": the field is device memory: packed backends stage through host buffers, zero-copy backends "
                      "are refused";
    m.refusal = "the field is device memory and comm.gpu_aware_mpi is off";
  } else if (takes_device) {  // row 2
    m.reason = fmt::format("{}: the field is device memory and {}: MPI reads device buffers directly", name, mpi_says(mpi));
  } else {  // row 3
    m.reason = fmt::format("{}: the field is device memory and {}: packed backends stage through host buffers, "
                           "zero-copy backends are refused",
                           name, mpi_says(mpi));
    m.refusal = fmt::format("the field is device memory and {}; set comm.gpu_aware_mpi: on if this MPI is GPU-aware",
                            mpi_says(mpi));
  }
  return m;
}

GpuKind compiled_gpu() {
#if defined(KOKKOS_ENABLE_CUDA)
  return GpuKind::kCuda;
#elif defined(KOKKOS_ENABLE_HIP)
  return GpuKind::kHip;
#else
  return GpuKind::kNone;
#endif
}

bool host_accessible_memory() {
  using Space = Kokkos::DefaultExecutionSpace::memory_space;
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible;
}

MpiMemory mpi_memory(core::GpuAwareMpiInput setting) {
  static const MpiGpuAnswer answer = query_mpi_gpu_support(compiled_gpu());  // the library does not change
  return decide_mpi_memory(setting, host_accessible_memory(), answer);
}

}  // namespace cartex::halo
