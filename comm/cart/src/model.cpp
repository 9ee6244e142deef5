// Linear and two-level cost models (ICPP'19 section 3.1, cut-off m < (alpha/beta)(t-C)/(V-t)).
#include "cartex/cart/model.hpp"

#include <limits>


namespace cartex::cart {

double predict(const Schedule& schedule, double block_bytes, const LinearModel& model) {
  double time = 0.0;
  for (const Phase& phase : schedule.phases())
    for (const Round& round : phase.rounds)
      time += model.alpha + model.beta * block_bytes * static_cast<double>(round.transfers.size());
  return time;
}

namespace {

// True when some process of the mesh talks to a process on another node in this round.
bool crosses_nodes(const std::vector<int>& shift, const std::vector<int>& dims, const std::vector<int>& periods,
                   int ppn) {
  const std::size_t d = dims.size();
  int size = 1;
  for (int n : dims) size *= n;
  std::vector<int> c(d, 0);
  for (int rank = 0; rank < size; ++rank) {
    int rest = rank;
    for (std::size_t k = d; k-- > 0;) {
      c[k] = rest % dims[k];
      rest /= dims[k];
    }
    int partner = 0;
    bool exists = true;
    for (std::size_t k = 0; k < d && exists; ++k) {
      int x = c[k] + shift[k];
      if (periods[k]) x = ((x % dims[k]) + dims[k]) % dims[k];
      else exists = x >= 0 && x < dims[k];
      partner = partner * dims[k] + x;
    }
    if (exists && partner / ppn != rank / ppn) return true;
  }
  return false;
}

}  // namespace

double predict_two_level(const Schedule& schedule, double block_bytes, const std::vector<int>& dims,
                         const std::vector<int>& periods, const TwoLevelModel& model) {
  double time = 0.0;
  for (const Phase& phase : schedule.phases())
    for (const Round& round : phase.rounds) {
      const LinearModel& m = crosses_nodes(round.shift, dims, periods, model.ppn) ? model.inter_node : model.on_node;
      time += m.alpha + m.beta * block_bytes * static_cast<double>(round.transfers.size());
    }
  return time;
}

double combining_cutoff_bytes(int t_nonzero, int rounds, long long volume, const LinearModel& model) {
  if (rounds >= t_nonzero) return 0.0;
  if (volume <= t_nonzero) return std::numeric_limits<double>::infinity();
  return model.alpha / model.beta * static_cast<double>(t_nonzero - rounds) / static_cast<double>(volume - t_nonzero);
}

}  // namespace cartex::cart
