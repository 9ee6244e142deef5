// Linear cost models of the ICPP'19 paper (section 3.1): a round costs alpha + beta * bytes, so the
// combining schedule wins when C*alpha + beta*V*m < t*(alpha + beta*m), i.e.
// m < (alpha/beta) * (t - C) / (V - t). The two-level variant charges a round the inter-node
// alpha, beta when any process's partner in it is on another node.
#pragma once

#include <mpi.h>

#include <vector>

#include "cartex/cart/schedule.hpp"

namespace cartex::cart {

// Latency alpha (s) and time per byte beta (s/B) of one send-receive round.
struct LinearModel {
  double alpha;
  double beta;
};

// On-node and inter-node costs with ppn consecutive ranks per node (sequential mapping).
struct TwoLevelModel {
  LinearModel on_node;
  LinearModel inter_node;
  int ppn;
};

// Predicted completion time: sum over rounds of alpha + beta * (blocks in round) * block_bytes.
double predict(const Schedule& schedule, double block_bytes, const LinearModel& model);

// As predict, but each round priced on-node or inter-node on the mesh (dims, periods).
double predict_two_level(const Schedule& schedule, double block_bytes, const std::vector<int>& dims,
                         const std::vector<int>& periods, const TwoLevelModel& model);

// Largest block size in bytes for which combining beats direct: (alpha/beta)(t'-C)/(V-t'), where t'
// counts the non-zero offsets; +infinity when V <= t', 0 when C >= t'.
double combining_cutoff_bytes(int t_nonzero, int rounds, long long volume, const LinearModel& model);

// Collective ping-pong within comm: pairs (2i, 2i+1) exchange 1 byte and 64 KiB messages; returns
// the slowest pair's alpha and beta on every process (shared-memory defaults on one process).
// This is what `auto` uses when no cx_alpha/cx_beta info keys are given.
LinearModel measure_linear_model(MPI_Comm comm);

}  // namespace cartex::cart
