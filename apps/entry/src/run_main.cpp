#include "cartex/entry/run_main.hpp"

#include <fmt/format.h>

#include "cartex/cart/error.hpp"
#include "cartex/core/error.hpp"
#include "cartex/core/mpi_main.hpp"

namespace cartex::entry {

namespace {

// `f()`, with a cart::Error rethrown as the cartex::core::Error main reports.
template <class F>
auto mapping_cart_errors(const F& f) {
  try {
    return f();
  } catch (const cart::Error& e) {
    throw core::Error(cart_error_text(e.what(), e.error_class()));
  }
}

}  // namespace

std::string cart_error_text(const std::string& what, int error_class) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(error_class, text, &len) != MPI_SUCCESS) len = 0;
  return fmt::format("{} (MPI error class {}: {})", what, error_class, std::string(text, static_cast<size_t>(len)));
}

int run_main(MPI_Comm comm, const std::function<void()>& setup, const std::function<int()>& run) {
  return core::run_collectively(
      comm, [&] { mapping_cart_errors(setup); }, [&] { return mapping_cart_errors(run); });
}

}  // namespace cartex::entry
