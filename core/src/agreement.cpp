#include "cartex/core/agreement.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <exception>
#include <vector>

#include "cartex/core/error.hpp"
#include "cartex/core/mpi_check.hpp"

namespace cartex::core {

namespace {

// `text` of rank `root` on every rank of `comm`.
std::string broadcast_text(MPI_Comm comm, int root, std::string text) {
  long n = static_cast<long>(text.size());
  check_mpi(MPI_Bcast(&n, 1, MPI_LONG, root, comm), "MPI_Bcast");
  text.resize(static_cast<std::size_t>(n));
  if (n > 0) check_mpi(MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, root, comm), "MPI_Bcast");
  return text;
}

// The lowest rank of `comm` for which `mine` is true, or the size when none is.
int lowest(MPI_Comm comm, bool mine) {
  const int size = comm_size(comm);
  int first = mine ? comm_rank(comm) : size;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  return first;
}

// 64-bit FNV-1a: equal on every rank for equal bytes, whatever the rank's platform.
unsigned long long fnv1a(const std::string& bytes) {
  unsigned long long h = 14695981039346656037ULL;
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

}  // namespace

void agree(MPI_Comm comm, const std::function<void()>& step) {
  enum : int { kOk = 0, kInput = 1, kOther = 2 };
  int outcome = kOk;
  std::string what;
  try {
    step();
  } catch (const InputError& e) {
    outcome = kInput;
    what = e.what();
  } catch (const std::exception& e) {
    outcome = kOther;
    what = e.what();
  }
  const int first = lowest(comm, outcome != kOk);
  if (first == comm_size(comm)) return;
  check_mpi(MPI_Bcast(&outcome, 1, MPI_INT, first, comm), "MPI_Bcast");
  what = broadcast_text(comm, first, what);
  if (outcome == kInput) throw InputError(what);
  throw Error(what);
}

std::string agreed_env(MPI_Comm comm, const char* name) {
  const char* v = std::getenv(name);
  const std::string mine = v == nullptr ? std::string() : std::string(v);
  const std::string root = broadcast_text(comm, 0, mine);
  const int first = lowest(comm, mine != root);
  if (first == comm_size(comm)) return mine;
  const std::string other = broadcast_text(comm, first, mine);
  const auto shown = [](const std::string& s) { return s.empty() ? std::string("unset") : "'" + s + "'"; };
  throw InputError(fmt::format("environment: {} is {} on rank 0 but {} on rank {}: a run needs it alike on every rank", name,
                               shown(root), shown(other), first));
}

void agree_same_bytes(MPI_Comm comm, const std::string& file, const std::string& bytes) {
  const unsigned long long mine = fnv1a(bytes);
  unsigned long long root = mine;
  check_mpi(MPI_Bcast(&root, 1, MPI_UNSIGNED_LONG_LONG, 0, comm), "MPI_Bcast");
  const int first = lowest(comm, mine != root);
  if (first < comm_size(comm))
    throw InputError(fmt::format("{}:1:1: (file): rank {} read other bytes than rank 0 (a copy local to one node, or a file "
                                 "changed while the run started): every rank must read the same input",
                                 file, first));
}

}  // namespace cartex::core
