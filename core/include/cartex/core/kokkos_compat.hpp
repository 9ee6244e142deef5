#pragma once
// The few Kokkos names that moved between 3.4 (Debian), 4.x and 5.x: device math functions live in
// Kokkos::Experimental before 3.7 and in Kokkos from 3.7 on (the Experimental ones are gone in 4.x);
// View::HostMirror is deprecated in 5.x for View::host_mirror_type, which in 3.x names another type;
// execution space instances of their own come from partition_space from 3.5 on, from a stream in 3.4.
#include <Kokkos_Core.hpp>

#include <utility>

#include "cartex/core/error.hpp"

// Tells the compiler that a host loop has no dependencies between iterations (its stores never feed its
// loads), so it vectorises stencil loops with many loads instead of giving up on alias checks.
#if defined(__clang__)
#define CARTEX_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__) && !defined(__CUDA_ARCH__)
#define CARTEX_IVDEP _Pragma("GCC ivdep")
#else
#define CARTEX_IVDEP
#endif

namespace cartex::core {

// The host mirror of view type V: the type Kokkos::create_mirror_view returns for it, in every version.
template <class V>
using host_mirror_t = decltype(Kokkos::create_mirror_view(std::declval<const V&>()));

// True if execution space E runs its work on the host's threads (Serial, OpenMP, Threads): a
// parallel_for there returns when the work is done. False on devices (Cuda, HIP, SYCL), where a
// launch returns at once and the work runs while the host thread goes on.
template <class E>
inline constexpr bool runs_on_host = Kokkos::SpaceAccessibility<E, Kokkos::HostSpace>::accessible;

// An instance of the default execution space besides the default one: on a device its own stream or
// queue, so that work launched on it runs while the default instance runs other work (each waits
// only for its own fence). Kokkos >= 3.5: Kokkos::Experimental::partition_space; Kokkos 3.4 has none,
// so there a CUDA or HIP stream this object creates (Kokkos::Cuda(cudaStream_t) and HIP(hipStream_t)
// do not own the stream: it is destroyed after the instance), non-blocking: the legacy default stream
// of 3.4's default instance would otherwise wait for it; SYCL and OpenMPTarget on 3.4 get the
// default instance (correct, nothing runs beside it). On host spaces it is the default instance: a
// host launch returns when done, so nothing would run beside it anyway. Valid while this object lives.
class SeparateInstance {
 public:
  using Exec = Kokkos::DefaultExecutionSpace;
  SeparateInstance() : exec_(make()) {}
  SeparateInstance(const SeparateInstance&) = delete;
  SeparateInstance& operator=(const SeparateInstance&) = delete;
  const Exec& exec() const { return exec_; }

 private:
#if KOKKOS_VERSION < 30500 && defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_CUDA)
  struct Stream {
    cudaStream_t id = nullptr;
    Stream() {
      require(cudaStreamCreateWithFlags(&id, cudaStreamNonBlocking) == cudaSuccess, "SeparateInstance: cudaStreamCreateWithFlags failed");
    }
    ~Stream() { cudaStreamDestroy(id); }
  };
  Stream stream_;  // declared before exec_: destroyed after it
  Exec make() const { return Exec(stream_.id); }
#elif KOKKOS_VERSION < 30500 && defined(KOKKOS_ENABLE_DEFAULT_DEVICE_TYPE_HIP)
  struct Stream {
    hipStream_t id = nullptr;
    Stream() {
      require(hipStreamCreateWithFlags(&id, hipStreamNonBlocking) == hipSuccess, "SeparateInstance: hipStreamCreateWithFlags failed");
    }
    ~Stream() { (void)hipStreamDestroy(id); }
  };
  Stream stream_;  // declared before exec_: destroyed after it
  Exec make() const { return Exec(stream_.id); }
#elif KOKKOS_VERSION >= 30500
  static Exec make() {
    if constexpr (runs_on_host<Exec>) {
      return Exec();
    } else {
      auto parts = Kokkos::Experimental::partition_space(Exec(), 1);  // std::array or std::vector by version
      return parts[0];
    }
  }
#else
  static Exec make() { return Exec(); }
#endif
  Exec exec_;
};

}  // namespace cartex::core

namespace cartex::core::kmath {

#if KOKKOS_VERSION >= 30700
using Kokkos::cos;
using Kokkos::exp;
using Kokkos::sin;
#else
using Kokkos::Experimental::cos;
using Kokkos::Experimental::exp;
using Kokkos::Experimental::sin;
#endif

}  // namespace cartex::core::kmath
