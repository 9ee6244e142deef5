#pragma once
// How an overlapped step (Stepper, comm.overlap) runs the interior update while the halo exchange is
// in flight:
//
//   shape     used on                the interior (inner cells)          the host thread meanwhile
//   chunked   host execution spaces  chunks of whole lines, one launch   plan.progress() after each
//             (Serial, OpenMP)       each, returning when done           chunk
//   async     devices (Cuda, HIP,    one launch on an execution space    plan.progress() until done(),
//             SYCL)                  instance besides the default one,   finish, the rim (default
//                                    returning at once                   instance); then fences the
//                                                                        interior's instance
//
// Why: a host parallel_for returns only when its work is done, so the host thread can call progress()
// only between launches: chunks are the only way to interleave them. A device launch returns at once,
// so one launch of the whole interior runs while the host thread drives the exchange, and the plan's
// pack/unpack kernels and copies (default instance) run beside it; chunks there would be many small
// kernels with a fence each. On the host the async shape runs too (Stepper::set_overlap_shape, for
// tests): the launch returns when done, then progress until done; bitwise the same results.
#include "cartex/core/kokkos_compat.hpp"

namespace cartex::app {

enum class OverlapShape { kChunked, kAsync };

// The shape for this build's default execution space: chunked on the host, async on devices.
constexpr OverlapShape default_overlap_shape() {
  return core::runs_on_host<Kokkos::DefaultExecutionSpace> ? OverlapShape::kChunked : OverlapShape::kAsync;
}

// "chunked" or "async", for the summary.
constexpr const char* overlap_shape_name(OverlapShape shape) { return shape == OverlapShape::kChunked ? "chunked" : "async"; }

}  // namespace cartex::app
