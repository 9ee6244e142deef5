// The C interface (cx_cart.h): argument checks, the isomorphism check, and the mapping of every
// call onto the neighborhood state. Exceptions never cross this boundary: they become an MPI
// error class plus a message for CX_Error_string.
#include "cartex/cart/cx_cart.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cartex/cart/error.hpp"
#include "c_support.hpp"
#include "state.hpp"

using cartex::cart::Algorithm;
using cartex::cart::Collective;
using cartex::cart::Error;
using cartex::cart::Execution;
using cartex::cart::Offsets;
using cartex::cart::Options;
using cartex::cart::Topology;
using cartex::cart::check_mpi;
using cartex::cart::check_mpi_nothrow;
using cartex::cart::detail::guarded;
namespace detail = cartex::cart::detail;

namespace {

int keyval = MPI_KEYVAL_INVALID;

int delete_state(MPI_Comm, int, void* value, void*) {
  delete static_cast<std::shared_ptr<detail::State>*>(value);
  return MPI_SUCCESS;
}

std::string vector_text(const int* v, int d) {
  std::ostringstream s;
  s << '(';
  for (int k = 0; k < d; ++k) s << (k ? "," : "") << v[k];
  s << ')';
  return s.str();
}

// Reads the info keys of docs/cart.md into options; throws MPI_ERR_INFO_VALUE on bad values.
Options read_info(MPI_Info info) {
  Options o;
#ifndef NDEBUG
  o.check_isomorphic = true;
#endif
  if (info == MPI_INFO_NULL) return o;
  auto get = [&](const char* key) -> std::optional<std::string> {
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    check_mpi(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag), "MPI_Info_get");
    if (!flag) return std::nullopt;
    return std::string(value);
  };
  auto bad = [](const char* key, const std::string& v) {
    return Error(MPI_ERR_INFO_VALUE, std::string("invalid value '") + v + "' for info key " + key);
  };
  if (auto v = get("cx_algorithm")) {
    if (*v == "direct") o.algorithm = Algorithm::direct;
    else if (*v == "combining") o.algorithm = Algorithm::combining;
    else if (*v == "auto") o.algorithm = Algorithm::automatic;
    else throw bad("cx_algorithm", *v);
  }
  if (auto v = get("cx_execution")) {
    if (*v == "zerocopy") o.execution = Execution::zero_copy;
    else if (*v == "packed") o.execution = Execution::packed;
    else if (*v == "auto") o.execution = Execution::automatic;
    else throw bad("cx_execution", *v);
  }
  if (auto v = get("cx_check_isomorphic")) {
    if (*v == "true") o.check_isomorphic = true;
    else if (*v == "false") o.check_isomorphic = false;
    else throw bad("cx_check_isomorphic", *v);
  }
  for (const char* key : {"cx_alpha", "cx_beta"}) {
    if (auto v = get(key)) {
      char* end = nullptr;
      const double x = std::strtod(v->c_str(), &end);
      if (end == v->c_str() || *end != '\0' || !(x > 0.0)) throw bad(key, *v);
      (std::strcmp(key, "cx_alpha") == 0 ? o.alpha : o.beta) = x;
    }
  }
  if ((o.alpha > 0.0) != (o.beta > 0.0)) throw Error(MPI_ERR_INFO_VALUE, "cx_alpha and cx_beta go together");
  return o;
}

// Local argument checks of the creation call.
void check_create_args(MPI_Comm comm, int d, const int dims[], const int periods[], int t, const int rel[],
                       MPI_Comm* cartcomm) {
  if (cartcomm == nullptr) throw Error(MPI_ERR_ARG, "cartcomm is NULL");
  if (d < 1 || d > CX_CART_MAX_DIMS)
    throw Error(MPI_ERR_DIMS, "d = " + std::to_string(d) + " is outside 1.." + std::to_string(CX_CART_MAX_DIMS));
  if (dims == nullptr || periods == nullptr) throw Error(MPI_ERR_ARG, "dims or periods is NULL");
  long long p = 1;
  for (int k = 0; k < d; ++k) {
    if (dims[k] < 1) throw Error(MPI_ERR_DIMS, "dims[" + std::to_string(k) + "] = " + std::to_string(dims[k]));
    p *= dims[k];
  }
  int size = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (p > size) throw Error(MPI_ERR_DIMS, "the grid has " + std::to_string(p) + " processes, comm has " + std::to_string(size));
  if (t < 0) throw Error(MPI_ERR_ARG, "t = " + std::to_string(t) + " is negative");
  if (t > 0 && rel == nullptr) throw Error(MPI_ERR_ARG, "targetrelative is NULL");
}

// O(t) isomorphism check (ICPP'19 section 2.2): broadcast rank 0's t and offsets, compare, and
// agree on the first differing offset so that every process reports the same failure.
void check_isomorphic(MPI_Comm cart, int d, int t, const int rel[]) {
  int rank = 0;
  check_mpi(MPI_Comm_rank(cart, &rank), "MPI_Comm_rank");
  int t0 = t;
  check_mpi(MPI_Bcast(&t0, 1, MPI_INT, 0, cart), "MPI_Bcast");
  std::vector<int> root(static_cast<std::size_t>(t0) * d);
  if (rank == 0 && t0 > 0) std::memcpy(root.data(), rel, root.size() * sizeof(int));
  if (t0 > 0) check_mpi(MPI_Bcast(root.data(), t0 * d, MPI_INT, 0, cart), "MPI_Bcast");
  int first = INT_MAX;
  for (int i = 0; i < std::min(t, t0) && first == INT_MAX; ++i)
    if (std::memcmp(root.data() + static_cast<std::size_t>(i) * d, rel + static_cast<std::size_t>(i) * d, sizeof(int) * d) != 0)
      first = i;
  if (first == INT_MAX && t != t0) first = std::min(t, t0);
  int local[2] = {first, t != t0 ? 1 : 0};
  int global[2] = {0, 0};
  int mins[2] = {local[0], -local[1]};
  check_mpi(MPI_Allreduce(mins, global, 2, MPI_INT, MPI_MIN, cart), "MPI_Allreduce");
  if (global[0] == INT_MAX) return;
  std::string msg = "neighborhoods are not isomorphic: ";
  if (global[1] != 0) msg += "t differs between processes (rank 0 has t = " + std::to_string(t0) + "); ";
  msg += "first differing offset is index " + std::to_string(global[0]);
  if (global[0] < t0) msg += ", rank 0 has " + vector_text(root.data() + static_cast<std::size_t>(global[0]) * d, d);
  throw Error(MPI_ERR_ARG, msg);
}

// Topology of a CX neighborhood or of any MPI Cartesian communicator.
Topology topology_of(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(MPI_ERR_COMM, "communicator is MPI_COMM_NULL");
  if (keyval != MPI_KEYVAL_INVALID) {
    void* value = nullptr;
    int flag = 0;
    check_mpi(MPI_Comm_get_attr(comm, keyval, &value, &flag), "MPI_Comm_get_attr");
    if (flag) return (*static_cast<std::shared_ptr<detail::State>*>(value))->topology();
  }
  int status = MPI_UNDEFINED;
  check_mpi(MPI_Topo_test(comm, &status), "MPI_Topo_test");
  if (status != MPI_CART) throw Error(MPI_ERR_TOPOLOGY, "not a Cartesian communicator");
  int d = 0;
  check_mpi(MPI_Cartdim_get(comm, &d), "MPI_Cartdim_get");
  std::vector<int> dims(static_cast<std::size_t>(d)), periods(dims.size()), coords(dims.size());
  check_mpi(MPI_Cart_get(comm, d, dims.data(), periods.data(), coords.data()), "MPI_Cart_get");
  return Topology(dims, periods, coords);
}

}  // namespace

namespace cartex::cart::detail {

std::shared_ptr<State> state_of(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(MPI_ERR_COMM, "communicator is MPI_COMM_NULL");
  void* value = nullptr;
  int flag = 0;
  if (keyval != MPI_KEYVAL_INVALID) check_mpi(MPI_Comm_get_attr(comm, keyval, &value, &flag), "MPI_Comm_get_attr");
  if (!flag) throw Error(MPI_ERR_TOPOLOGY, "communicator was not created by CX_Cart_neighborhood_create");
  return *static_cast<std::shared_ptr<State>*>(value);
}

void attach(MPI_Comm comm, std::shared_ptr<State> state) {
  if (keyval == MPI_KEYVAL_INVALID)
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &keyval, nullptr), "MPI_Comm_create_keyval");
  check_mpi(MPI_Comm_set_attr(comm, keyval, new std::shared_ptr<State>(std::move(state))), "MPI_Comm_set_attr");
}

}  // namespace cartex::cart::detail

extern "C" {

int CX_Cart_neighborhood_create(MPI_Comm comm, int d, const int dims[], const int periods[], int t,
                                const int targetrelative[], const int* weights, MPI_Info info, int reorder,
                                MPI_Comm* cartcomm) {
  return guarded([&] {
    if (comm == MPI_COMM_NULL) throw Error(MPI_ERR_COMM, "communicator is MPI_COMM_NULL");
    int inter = 0;
    check_mpi(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
    if (inter) throw Error(MPI_ERR_COMM, "an intercommunicator cannot carry a Cartesian neighborhood");
    // Local checks, then one allreduce so that a bad argument anywhere fails everywhere.
    std::optional<Error> local;
    Options options;
    try {
      check_create_args(comm, d, dims, periods, t, targetrelative, cartcomm);
      options = read_info(info);
    } catch (const Error& e) {
      local = e;
    }
    int mine[3] = {local ? 1 : 0, local ? 0 : d, local ? 0 : -d};
    int all[3] = {0, 0, 0};
    check_mpi(MPI_Allreduce(mine, all, 3, MPI_INT, MPI_MAX, comm), "MPI_Allreduce");
    if (local) throw *local;
    if (all[0]) throw Error(MPI_ERR_ARG, "invalid arguments on another process");
    if (all[1] != -all[2]) throw Error(MPI_ERR_DIMS, "d differs between processes");
    *cartcomm = MPI_COMM_NULL;
    MPI_Comm cart = MPI_COMM_NULL;
    check_mpi(MPI_Cart_create(comm, d, dims, periods, reorder, &cart), "MPI_Cart_create");
    if (cart == MPI_COMM_NULL) return;  // this process is not part of the grid
    try {
      if (options.check_isomorphic) check_isomorphic(cart, d, t, targetrelative);
      int rank = 0;
      check_mpi(MPI_Comm_rank(cart, &rank), "MPI_Comm_rank");
      std::vector<int> coords(static_cast<std::size_t>(d));
      check_mpi(MPI_Cart_coords(cart, rank, d, coords.data()), "MPI_Cart_coords");
      Topology topology(std::vector<int>(dims, dims + d), std::vector<int>(periods, periods + d), coords);
      Offsets offsets(d, std::vector<int>(targetrelative, targetrelative + static_cast<std::size_t>(t) * d));
      auto state = std::make_shared<detail::State>(cart, std::move(topology), std::move(offsets), options);
      if (weights != MPI_UNWEIGHTED && weights != MPI_WEIGHTS_EMPTY && weights != nullptr)
        state->weights().assign(weights, weights + t);
      detail::attach(cart, std::move(state));
    } catch (...) {
      check_mpi_nothrow(MPI_Comm_free(&cart), "MPI_Comm_free");  // the first error is the one to throw
      throw;
    }
    *cartcomm = cart;
  });
}

int CX_Cart_relative_rank(MPI_Comm cartcomm, const int relative[], int* rank) {
  return guarded([&] {
    const Topology topo = topology_of(cartcomm);
    if (relative == nullptr || rank == nullptr) throw Error(MPI_ERR_ARG, "NULL argument");
    *rank = topo.shifted_rank(relative, 1);
  });
}

int CX_Cart_relative_shift(MPI_Comm cartcomm, const int relative[], int* inrank, int* outrank) {
  return guarded([&] {
    const Topology topo = topology_of(cartcomm);
    if (relative == nullptr || inrank == nullptr || outrank == nullptr) throw Error(MPI_ERR_ARG, "NULL argument");
    *inrank = topo.shifted_rank(relative, -1);
    *outrank = topo.shifted_rank(relative, 1);
  });
}

int CX_Cart_relative_coord(MPI_Comm cartcomm, int rank, int relative[]) {
  return guarded([&] {
    const Topology topo = topology_of(cartcomm);
    if (relative == nullptr) throw Error(MPI_ERR_ARG, "relative is NULL");
    if (rank < 0 || rank >= topo.size()) throw Error(MPI_ERR_RANK, "rank " + std::to_string(rank) + " is not in the grid");
    const std::vector<int> c = topo.coords_of(rank);
    for (int k = 0; k < topo.ndims(); ++k) relative[k] = c[static_cast<std::size_t>(k)] - topo.coords()[static_cast<std::size_t>(k)];
  });
}

int CX_Cart_neighbor_count(MPI_Comm cartcomm, int* t) {
  return guarded([&] {
    auto state = detail::state_of(cartcomm);
    if (t == nullptr) throw Error(MPI_ERR_ARG, "t is NULL");
    *t = state->offsets().t();
  });
}

int CX_Cart_neighbor_graph_count(MPI_Comm cartcomm, int* indegree, int* outdegree) {
  return guarded([&] {
    auto state = detail::state_of(cartcomm);
    if (indegree == nullptr || outdegree == nullptr) throw Error(MPI_ERR_ARG, "NULL argument");
    *indegree = *outdegree = 0;
    const Offsets& o = state->offsets();
    for (int i = 0; i < o.t(); ++i) {
      *indegree += state->topology().shifted_rank(o[i], -1) != MPI_PROC_NULL;
      *outdegree += state->topology().shifted_rank(o[i], 1) != MPI_PROC_NULL;
    }
  });
}

namespace {

int neighbor_get(MPI_Comm cartcomm, int maxin, int sources[], int* sourceweights, int maxout, int targets[],
                 int* targetweights, bool with_null) {
  return guarded([&] {
    auto state = detail::state_of(cartcomm);
    if (maxin < 0 || maxout < 0) throw Error(MPI_ERR_ARG, "maxin or maxout is negative");
    const Offsets& o = state->offsets();
    const auto& w = state->weights();
    auto fill = [&](int sign, int max, int* ranks, int* weights) {
      int n = 0;
      for (int i = 0; i < o.t() && n < max; ++i) {
        const int r = state->topology().shifted_rank(o[i], sign);
        if (!with_null && r == MPI_PROC_NULL) continue;
        ranks[n] = r;
        if (weights != MPI_UNWEIGHTED && weights != nullptr) weights[n] = w.empty() ? 1 : w[static_cast<std::size_t>(i)];
        ++n;
      }
    };
    fill(-1, maxin, sources, sourceweights);
    fill(1, maxout, targets, targetweights);
  });
}

}  // namespace

int CX_Error_string(char* string, int* resultlen) {
  if (string == nullptr || resultlen == nullptr) return MPI_ERR_ARG;
  const std::string& m = detail::last_error_message();
  const std::size_t n = std::min(m.size(), static_cast<std::size_t>(CX_MAX_ERROR_STRING - 1));
  std::memcpy(string, m.data(), n);
  string[n] = '\0';
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

int CX_Cart_neighbor_get(MPI_Comm cartcomm, int maxin, int sources[], int* sourceweights, int maxout, int targets[],
                         int* targetweights) {
  return neighbor_get(cartcomm, maxin, sources, sourceweights, maxout, targets, targetweights, true);
}

int CX_Cart_neighbor_graph_get(MPI_Comm cartcomm, int maxin, int sources[], int* sourceweights, int maxout,
                               int targets[], int* targetweights) {
  return neighbor_get(cartcomm, maxin, sources, sourceweights, maxout, targets, targetweights, false);
}

}  // extern "C"
