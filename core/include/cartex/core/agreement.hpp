#pragma once
// Set-up decisions agreed across the ranks before the collectives that follow them. A rank that fails
// on its own (an input file or an environment variable only it sees) must not leave the others waiting
// in a collective it never reaches, nor send them down another branch:
//
//   rank 0:  read input ok ----- agree -> every rank throws rank 1's error ----> run_collectively prints it
//   rank 1:  read input FAILS -- agree -^                                        once, exit code on every rank
//
// run_collectively (mpi_main.hpp) agrees once more after the whole set-up; these are the agreement
// steps inside it.
#include <mpi.h>

#include <functional>
#include <string>

namespace cartex::core {

// Runs `step` on every rank of `comm`, then agrees on the outcome (collective): when some rank threw,
// every rank throws the lowest failing rank's error (an InputError stays one, anything else becomes an
// Error with its text).
void agree(MPI_Comm comm, const std::function<void()>& step);

// The environment variable `name` (empty when unset), checked to be the same on every rank of `comm`
// (collective): otherwise an InputError on every rank naming the first rank whose value differs from
// rank 0's, since a decision taken from it would differ between ranks.
std::string agreed_env(MPI_Comm comm, const char* name);

// Checks that the `bytes` this rank read from `file` are the same on every rank of `comm` (collective,
// by a 64-bit FNV-1a hash): otherwise an InputError on every rank, located at the file, naming the
// first rank that read other bytes than rank 0 (a node-local copy, or a file rewritten meanwhile).
void agree_same_bytes(MPI_Comm comm, const std::string& file, const std::string& bytes);

}  // namespace cartex::core
