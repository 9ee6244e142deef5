// Shared machinery of the C interface (see c_support.hpp).
#include "c_support.hpp"

#include <memory>
#include <string>

namespace cartex::cart::detail {
namespace {

thread_local std::string last_error;

}  // namespace

const std::string& last_error_message() { return last_error; }

void set_last_error(const std::string& message) { last_error = message; }

void check_count(int count, const char* what, std::optional<Error>& err) {
  if (count < 0 && !err) err = Error(MPI_ERR_COUNT, std::string(what) + " is negative (" + std::to_string(count) + ")");
}

void check_type(MPI_Datatype type, const char* what, std::optional<Error>& err) {
  if (type == MPI_DATATYPE_NULL && !err) err = Error(MPI_ERR_TYPE, std::string(what) + " is MPI_DATATYPE_NULL");
}

void check_counts(int t, const int* counts, const char* what, std::optional<Error>& err) {
  check_ptr(t, counts, what, err);
  if (counts != nullptr)
    for (int i = 0; i < t; ++i) check_count(counts[i], what, err);
}

void check_types(int t, const MPI_Datatype* types, const char* what, std::optional<Error>& err) {
  check_ptr(t, types, what, err);
  if (types != nullptr)
    for (int i = 0; i < t; ++i) check_type(types[i], what, err);
}

void check_ptr(int t, const void* p, const char* what, std::optional<Error>& err) {
  if (t > 0 && p == nullptr && !err) err = Error(MPI_ERR_ARG, std::string(what) + " is NULL");
}

int collective(MPI_Comm comm, OpKind kind, Collective c, CX_Cart_plan* plan,
               const std::function<void(int, std::optional<Error>&)>& validate,
               const std::function<CallLayout(int)>& layout) {
  return guarded([&] {
    auto state = state_of(comm);
    std::optional<Error> err;
    validate(state->offsets().t(), err);
    agree(*state, err ? &*err : nullptr);
    CallLayout l = layout(state->offsets().t());
    if (plan == nullptr) {
      state->run(kind, c, l);
    } else {
      auto p = std::make_unique<CX_Cart_plan_s>();
      p->impl = state->plan(kind, c, std::move(l), state);
      *plan = p.release();
    }
  });
}

}  // namespace cartex::cart::detail
