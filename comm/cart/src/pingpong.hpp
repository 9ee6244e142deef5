// The quick ping-pong that measures alpha and beta of the linear model within a communicator.
#pragma once

#include <mpi.h>

#include "cartex/cart/model.hpp"

namespace cartex::cart::detail {

// Collective: pairs (2i, 2i+1) ping-pong a small and a large message; the slowest pair's alpha
// and beta are returned on every process (defaults of shared memory on one process).
LinearModel measure_linear_model(MPI_Comm comm);

}  // namespace cartex::cart::detail
