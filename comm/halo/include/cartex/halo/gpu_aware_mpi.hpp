#pragma once
// comm.gpu_aware_mpi: where MPI reads and writes halo data. A field lives in Kokkos' default memory
// space: host memory on Serial/OpenMP, device memory on CUDA/HIP, where only a GPU-aware MPI may be
// handed its pointers. Packed backends either hand MPI their pack buffers (direct) or copy them
// through separate host buffers (staged: staging/staged_buffers.hpp); zero-copy backends hand MPI the
// field itself, so they need memory MPI can use. One decision per run, from three inputs:
//
//   setting | field memory    | MPI says GPU support | packed buffers to MPI | zero-copy backends
//   --------+-----------------+----------------------+-----------------------+-------------------
//   auto    | host-accessible | (not needed)         | direct (host memory)  | allowed
//   auto    | device          | yes                  | direct (device)       | allowed
//   auto    | device          | no or unknown        | staged                | refused
//   on      | host-accessible | (not needed)         | direct (host memory)  | allowed
//   on      | device          | any (trusted)        | direct (device)       | allowed
//   off     | host-accessible | (not needed)         | staged (host copies)  | allowed (host memory)
//   off     | device          | any                  | staged                | refused
//
// So: MPI takes device pointers when on, or auto and the MPI reports GPU support; packed buffers are
// staged unless MPI takes what the field's memory space holds; zero-copy backends run where the field
// is host memory or MPI takes device pointers. `off` on the host makes exactly the copies a GPU run
// does, which is how the staged path is tested without a GPU.
//
// MPI's answer is asked at run time, about the GPU of the Kokkos backend compiled in (CUDA or HIP):
// Open MPI's MPIX_Query_cuda_support() / MPIX_Query_rocm_support() (<mpi-ext.h>), MPICH's
// MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA or _HIP, &flag) (MPICH 4); anything else is unknown.
#include <string>

#include "cartex/core/config.hpp"

namespace cartex::halo {

// What the MPI library says about device pointers of the compiled-in GPU.
enum class MpiGpuSupport { kYes, kNo, kUnknown };

// MPI's answer and how it was obtained ("MPIX_Query_cuda_support() = 0"), for the run's report.
struct MpiGpuAnswer {
  MpiGpuSupport support = MpiGpuSupport::kUnknown;
  std::string how;
};

// The GPU whose support MPI is asked about.
enum class GpuKind { kNone, kCuda, kHip };

// The decision for one run (the table above).
struct MpiMemory {
  bool stage = false;      // packed backends copy through separate host buffers (else MPI sees the pack buffers)
  bool zero_copy = true;   // zero-copy backends may hand the field's memory to MPI
  std::string reason;      // one line for the run's report: the setting, the memory, MPI's answer
  std::string refusal;     // why zero-copy backends are refused (empty when allowed)
};

// The decision table: pure, for any setting, memory and answer.
MpiMemory decide_mpi_memory(core::GpuAwareMpiInput setting, bool host_accessible, const MpiGpuAnswer& mpi);

// Asks this MPI library (initialised) about `gpu`; kNone and libraries without a query are unknown.
MpiGpuAnswer query_mpi_gpu_support(GpuKind gpu);

// The GPU of the Kokkos backend compiled in (KOKKOS_ENABLE_CUDA / KOKKOS_ENABLE_HIP), or kNone.
GpuKind compiled_gpu();

// True if Kokkos' default memory space is host-accessible (the field is host memory).
bool host_accessible_memory();

// The decision of `setting` for this build and MPI library (asked once per process).
MpiMemory mpi_memory(core::GpuAwareMpiInput setting);

}  // namespace cartex::halo
