#pragma once
// The one way a cartex program's main reports errors: core's run_collectively, with comm/cart's own
// error type (MPI-only, so not a cartex::core::Error) mapped to a cartex::core::Error naming its MPI error class.
#include <mpi.h>

#include <functional>
#include <string>

namespace cartex::entry {

// run_collectively(comm, setup, run) with a cart::Error thrown by either turned into a cartex::core::Error
// "WHAT (MPI error class N: MPI's text)": InputError -> one located line, exit 2 on every rank; any
// other error -> one line, exit 1 on every rank (core/include/cartex/core/mpi_main.hpp).
int run_main(MPI_Comm comm, const std::function<void()>& setup, const std::function<int()>& run);

// The message of comm/cart's error with its MPI error class and that class's text.
std::string cart_error_text(const std::string& what, int error_class);

}  // namespace cartex::entry
