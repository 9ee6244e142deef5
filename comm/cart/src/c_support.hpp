// Shared machinery of the C interface: error capture (guarded), argument checks, and the common
// path of the allgather/alltoall calls, blocking or as a plan.
#pragma once

#include <mpi.h>

#include <functional>
#include <new>
#include <optional>
#include <string>

#include "cartex/cart/cx_cart.h"
#include "cartex/cart/error.hpp"
#include "layout.hpp"
#include "state.hpp"

// The object behind a CX_Cart_plan handle.
struct CX_Cart_plan_s {
  std::unique_ptr<cartex::cart::detail::PlanImpl> impl;
};

namespace cartex::cart::detail {

// Message of the last failed call of this thread.
const std::string& last_error_message();
// Records the message of a failed call.
void set_last_error(const std::string& message);

// Runs f; returns MPI_SUCCESS, or the error class of what it threw (message kept).
template <class F>
int guarded(F&& f) {
  try {
    f();
    set_last_error("");
    return MPI_SUCCESS;
  } catch (const Error& e) {
    set_last_error(e.what());
    return e.error_class();
  } catch (const std::bad_alloc&) {
    set_last_error("out of memory");
    return MPI_ERR_NO_MEM;
  } catch (const std::exception& e) {
    set_last_error(e.what());
    return MPI_ERR_INTERN;
  }
}

// Argument checks: each records the first failure in err.
void check_count(int count, const char* what, std::optional<Error>& err);
void check_type(MPI_Datatype type, const char* what, std::optional<Error>& err);
void check_counts(int t, const int* counts, const char* what, std::optional<Error>& err);
void check_types(int t, const MPI_Datatype* types, const char* what, std::optional<Error>& err);
void check_ptr(int t, const void* p, const char* what, std::optional<Error>& err);

// Validates (agreeing across processes when checking is on), builds the layout, then runs the
// call (plan == nullptr) or creates *plan.
int collective(MPI_Comm comm, OpKind kind, Collective c, CX_Cart_plan* plan,
               const std::function<void(int, std::optional<Error>&)>& validate,
               const std::function<CallLayout(int)>& layout);

}  // namespace cartex::cart::detail
