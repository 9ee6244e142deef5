// Asks the MPI library whether it takes device pointers (gpu_aware_mpi.hpp): Open MPI's extensions in
// <mpi-ext.h> (MPIX_CUDA_AWARE_SUPPORT / MPIX_ROCM_AWARE_SUPPORT defined when the query exists; their
// value is the build's, the query says whether this run can), MPICH 4's MPIX_GPU_query_support. Each
// query compiles only where its macro says the library has it, so every MPI builds this file.
#include <mpi.h>

#include <fmt/format.h>

#include "cartex/halo/gpu_aware_mpi.hpp"
#include "mpi_check.hpp"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

namespace cartex::halo {

namespace {

// An answer from a query returning 1 for support (unused with an MPI that has no query).
[[maybe_unused]] MpiGpuAnswer answer(int flag, const std::string& how) {
  return {flag == 1 ? MpiGpuSupport::kYes : MpiGpuSupport::kNo, fmt::format("{} = {}", how, flag)};
}

#if defined(MPIX_GPU_SUPPORT_CUDA) || defined(MPIX_GPU_SUPPORT_HIP)
// MPICH: MPIX_GPU_query_support(type, &flag), checked like every MPI call.
MpiGpuAnswer mpich_query(int type, const char* type_name) {
  int flag = 0;
  check_mpi(MPIX_GPU_query_support(type, &flag), "MPIX_GPU_query_support");
  return answer(flag, fmt::format("MPIX_GPU_query_support({})", type_name));
}
#endif

MpiGpuAnswer ask_cuda() {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return answer(MPIX_Query_cuda_support(), "MPIX_Query_cuda_support()");
#elif defined(MPIX_GPU_SUPPORT_CUDA)
  return mpich_query(MPIX_GPU_SUPPORT_CUDA, "MPIX_GPU_SUPPORT_CUDA");
#else
  return {MpiGpuSupport::kUnknown, "this MPI has no CUDA query"};
#endif
}

MpiGpuAnswer ask_hip() {
#if defined(MPIX_ROCM_AWARE_SUPPORT)
  return answer(MPIX_Query_rocm_support(), "MPIX_Query_rocm_support()");
#elif defined(MPIX_GPU_SUPPORT_HIP)
  return mpich_query(MPIX_GPU_SUPPORT_HIP, "MPIX_GPU_SUPPORT_HIP");
#else
  return {MpiGpuSupport::kUnknown, "this MPI has no HIP/ROCm query"};
#endif
}

}  // namespace

MpiGpuAnswer query_mpi_gpu_support(GpuKind gpu) {
  switch (gpu) {
    case GpuKind::kCuda:
      return ask_cuda();
    case GpuKind::kHip:
      return ask_hip();
    case GpuKind::kNone:
      break;
  }
  return {MpiGpuSupport::kUnknown, "not asked: this Kokkos has no GPU backend"};
}

}  // namespace cartex::halo
